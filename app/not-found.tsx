import Link from 'next/link';

export const metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">We could not find that page</h1>
        <p className="mt-3 text-sm text-slate-600">The address may be mistyped, or what it pointed to no longer exists.</p>
        <p className="mt-6">
          <Link href="/" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
            Go to Carebase
          </Link>
        </p>
      </div>
    </main>
  );
}
