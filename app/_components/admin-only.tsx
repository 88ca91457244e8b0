import Link from 'next/link';
import type { ReactNode } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { PageHeader } from './ui';

/** Wraps admin-only pages: coordinators get a clear explanation instead of the page. */
export async function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const { current } = await (await getCaller()).projects.mine();
  if (current.role === 'admin') return <>{children}</>;
  return (
    <>
      <PageHeader title={title} />
      <div role="alert" className="rounded-lg bg-amber-50 p-5 text-sm text-amber-900 ring-1 ring-amber-200">
        <p className="font-semibold">Admins only</p>
        <p className="mt-1">
          Your role in {current.name} is <strong>{current.role}</strong>. Ask an admin of the project if you need access.
        </p>
        <p className="mt-3">
          <Link href="/" className="font-medium underline">
            Back to the dashboard
          </Link>
        </p>
      </div>
    </>
  );
}
