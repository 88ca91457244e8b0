import Link from 'next/link';

export const metadata = { title: 'Page not found' };

/** Shown inside the console (with its navigation) for an unknown address or a resource that does not exist. */
export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">We could not find that page</h1>
      <p className="mt-3 text-sm text-slate-600">
        The address may be mistyped, or what it pointed to was deleted or belongs to another project. Check the project you are working in,
        or start again from the dashboard.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
          Go to the dashboard
        </Link>
        <Link href="/members" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
          Find a member
        </Link>
      </div>
    </div>
  );
}
