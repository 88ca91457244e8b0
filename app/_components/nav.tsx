'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';

type Item = { href: string; label: string; adminOnly?: boolean; soon?: boolean };
const SECTIONS: { title: string; items: Item[] }[] = [
  { title: 'Overview', items: [{ href: '/', label: 'Dashboard' }] },
  {
    title: 'Members',
    items: [
      { href: '/members', label: 'Members' },
      { href: '/records', label: 'Records' },
      { href: '/record-types', label: 'Record types' },
    ],
  },
  {
    title: 'Care',
    items: [
      { href: '/careplans', label: 'Care plans' },
      { href: '/templates', label: 'Templates' },
      { href: '/questionnaires', label: 'Questionnaires' },
      { href: '/articles', label: 'Articles' },
      { href: '/schedules', label: 'Schedules' },
      { href: '/observation-codes', label: 'Observation codes' },
    ],
  },
  {
    title: 'Integrations',
    items: [
      { href: '/integrations', label: 'Integrations & keys', adminOnly: true },
      { href: '/webhooks', label: 'Webhooks', adminOnly: true },
      { href: '/events', label: 'Events', adminOnly: true },
      { href: '/identity-providers', label: 'Identity providers', adminOnly: true },
      { href: '/api-reference', label: 'API reference' },
    ],
  },
  {
    title: 'Administration',
    items: [
      { href: '/team', label: 'Team' },
      { href: '/audit', label: 'Audit trail', adminOnly: true },
    ],
  },
];

export function Nav({ role }: { role: 'admin' | 'coordinator' }) {
  const pathname = usePathname();
  const isActive = (href: string) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`));
  // On a short screen the list scrolls inside the sidebar: keep the current page's link in view.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [pathname]);
  return (
    <nav ref={nav} aria-label="Main" className="space-y-4">
      {SECTIONS.map((section) => {
        const items = section.items.filter((i) => !i.adminOnly || role === 'admin');
        if (items.length === 0) return null;
        return (
          <div key={section.title}>
            <p id={`nav-${section.title}`} className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
              {section.title}
            </p>
            <ul className="mt-1 space-y-0.5" aria-labelledby={`nav-${section.title}`}>
              {items.map((item) => (
                <li key={item.href}>
                  {item.soon ? (
                    <span
                      aria-disabled="true"
                      title="Arrives in a coming release"
                      className="flex items-center justify-between rounded-md px-2 py-1.5 text-sm text-slate-500"
                    >
                      {item.label}
                      <span className="rounded bg-slate-100 px-1.5 text-[10px] font-medium uppercase text-slate-500">soon</span>
                    </span>
                  ) : (
                    <Link
                      href={item.href}
                      aria-current={isActive(item.href) ? 'page' : undefined}
                      className={
                        isActive(item.href)
                          ? 'block rounded-md bg-brand-50 px-2 py-1 text-sm font-medium text-brand-700'
                          : 'block rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100'
                      }
                    >
                      {item.label}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
