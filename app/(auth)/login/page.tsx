import { redirect } from 'next/navigation';
import { auth, listSignInProviders } from '@/server/auth/next-auth';
import { loginWithProvider } from './actions';
import { LoginForm } from './login-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

const ERRORS: Record<string, string> = {
  AccessDenied: 'Sign-in was refused: this account does not belong to anyone in the project.',
  Configuration: 'Sign-in through the identity provider failed. Ask an admin to check its settings.',
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  if (await auth()) redirect('/');
  const { next, error } = await searchParams;
  const providers = (await listSignInProviders()).map((p) => ({ id: p.id, display: p.display }));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-lg bg-brand-600 text-lg font-bold text-white" aria-hidden>
            C
          </div>
          <h1 className="text-xl font-semibold text-slate-900">Sign in to Carebase</h1>
          <p className="mt-1 text-sm text-slate-500">Staff sign in with email and password; members through their identity provider.</p>
        </div>
        {error && (
          <p role="alert" className="mb-4 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
            {ERRORS[error] ?? 'Sign-in failed. Please try again.'}
          </p>
        )}
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <LoginForm next={next ?? '/'} />
        </div>
        {providers.length > 0 && (
          <section aria-labelledby="idp-heading" className="mt-6">
            <h2 id="idp-heading" className="mb-2 text-center text-xs font-semibold uppercase tracking-wide text-slate-500">
              Or sign in with
            </h2>
            <div className="space-y-2">
              {providers.map((p) => (
                <form key={p.id} action={loginWithProvider}>
                  <input type="hidden" name="providerId" value={p.id} />
                  <button
                    type="submit"
                    className="w-full rounded-md bg-white px-3 py-2 text-sm font-medium text-slate-800 shadow-xs ring-1 ring-slate-300 hover:bg-slate-50"
                  >
                    {p.display}
                  </button>
                </form>
              ))}
            </div>
          </section>
        )}
      </div>
    </main>
  );
}
