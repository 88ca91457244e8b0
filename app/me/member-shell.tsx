import type { ReactNode } from 'react';
import { logout } from '@/app/(auth)/login/actions';

/** The frame of a member's own pages: their project's name, sign out, and a narrow readable column. */
export function MemberShell({ projectName, children }: { projectName: string; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-3 sm:px-6">
          <div className="flex items-center gap-2">
            <span className="flex size-7 items-center justify-center rounded-md bg-brand-600 text-sm font-bold text-white" aria-hidden>
              C
            </span>
            <span className="font-semibold text-slate-900">{projectName}</span>
          </div>
          <form action={logout}>
            <button type="submit" className="text-sm font-medium text-slate-700 hover:underline">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-8 sm:px-6">{children}</main>
    </div>
  );
}
