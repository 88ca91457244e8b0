import { redirect } from 'next/navigation';
import { auth } from '@/server/auth/next-auth';
import { LoginForm } from './login-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await auth()) redirect('/');
  const { next } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-lg bg-brand-600 text-lg font-bold text-white" aria-hidden>
            C
          </div>
          <h1 className="text-xl font-semibold text-slate-900">Sign in to Carebase</h1>
          <p className="mt-1 text-sm text-slate-500">Staff accounts only. Members sign in through their identity provider.</p>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <LoginForm next={next ?? '/'} />
        </div>
      </div>
    </main>
  );
}
