import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { logout } from '@/app/(auth)/login/actions';
import { Nav } from '@/app/_components/nav';
import { ProjectSwitcher } from '@/app/_components/project-switcher';
import { ResponsiveShell } from '@/app/_components/responsive-shell';
import { StaffProvider } from '@/app/_components/staff-context';
import { ToastProvider } from '@/app/_components/toast';
import { TrpcReactProvider } from '@/app/_trpc/client';
import { getCaller } from '@/app/_trpc/server';
import { auth } from '@/server/auth/next-auth';

export const dynamic = 'force-dynamic';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.id) redirect('/login');
  if (session.user.id.startsWith('member:')) redirect('/me');
  const caller = await getCaller();
  const { current, projects } = await caller.projects.mine();
  const brand = (
    <div className="flex items-center gap-2">
      <span className="flex size-7 items-center justify-center rounded-md bg-brand-600 text-sm font-bold text-white" aria-hidden>
        C
      </span>
      <span className="text-base font-semibold text-slate-900">Carebase</span>
    </div>
  );
  const staff = { projectId: current.id, projectName: current.name, role: current.role, email: session.user.email ?? '', timeZone: current.timeZone };
  return (
    <StaffProvider staff={staff}>
      <ResponsiveShell
        brand={brand}
        sidebar={
          <>
          <div className="mb-4 px-2">{brand}</div>
          <div className="mb-4 px-2">
            <ProjectSwitcher current={current.id} projects={projects} />
          </div>
          <div className="flex-1 overflow-y-auto">
            <Nav role={current.role} />
          </div>
          <div className="mt-4 border-t border-slate-100 px-2 pt-3 text-xs text-slate-600">
            <p className="truncate font-medium text-slate-800" title={staff.email}>
              {staff.email}
            </p>
            <p className="mt-0.5">{current.role === 'admin' ? 'Admin' : 'Coordinator'} · times in {current.timeZone}</p>
            <form action={logout} className="mt-2">
              <button type="submit" className="font-medium text-slate-800 underline underline-offset-2 hover:text-slate-950">
                Sign out
              </button>
            </form>
          </div>
          </>
        }
      >
        <TrpcReactProvider key={current.id}>
          <ToastProvider>
            <div className="mx-auto max-w-6xl">{children}</div>
          </ToastProvider>
        </TrpcReactProvider>
      </ResponsiveShell>
    </StaffProvider>
  );
}
