import Link from 'next/link';
import type { ReactNode } from 'react';

/** The frame of the sign-in, invitation and reset pages: the brand, a heading, one card. */
export function LinkShell({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-lg bg-brand-600 text-lg font-bold text-white" aria-hidden>
            C
          </div>
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          {intro && <p className="mt-1 text-sm text-slate-600">{intro}</p>}
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">{children}</div>
      </div>
    </main>
  );
}

/** An invitation or reset link that cannot be used: why, and the way back to sign in. */
export function UnusableLink({ title, children }: { title: string; children: ReactNode }) {
  return (
    <LinkShell title={title}>
      <p role="alert" className="text-sm text-slate-700">
        {children}
      </p>
      <p className="mt-4 text-sm">
        <Link href="/login" className="font-medium text-brand-700 underline">
          Go to sign in
        </Link>
      </p>
    </LinkShell>
  );
}
