'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The console's frame: a fixed sidebar from 1,024 px up; below that a top bar whose Menu button opens the
 * same sidebar as a drawer (a modal dialog: Escape, the backdrop or following a link closes it), so no
 * page is squeezed next to a 240 px column on a phone.
 */
export function ResponsiveShell({ sidebar, brand, children }: { sidebar: ReactNode; brand: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Following a link closes the drawer (rendering-time reset when the path changes).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button, select')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className="min-h-screen lg:flex">
      <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col border-r border-slate-200 bg-white px-3 py-4 lg:flex">{sidebar}</aside>
      <header className="sticky top-0 z-30 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2.5 lg:hidden">
        {brand}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls="console-drawer"
          onClick={() => setOpen(true)}
          className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          Menu
        </button>
      </header>
      {open && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-slate-900/40" aria-hidden onClick={() => setOpen(false)} />
          <div
            id="console-drawer"
            ref={panel}
            role="dialog"
            aria-modal="true"
            aria-label="Navigation"
            className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-white px-3 py-4 shadow-xl"
          >
            <button type="button" onClick={() => (setOpen(false), button.current?.focus())} className="mb-2 self-end rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100">
              Close
            </button>
            {sidebar}
          </div>
        </div>
      )}
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">{children}</main>
    </div>
  );
}
