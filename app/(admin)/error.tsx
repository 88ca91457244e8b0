'use client';

import Link from 'next/link';
import { useEffect } from 'react';

/** A page that failed to load, inside the console: what happened in words, a retry, and a way out. */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    document.title = 'Something went wrong · Carebase';
  }, []);
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">This page could not be loaded</h1>
      <p className="mt-3 text-sm text-slate-600">
        Something went wrong on our side or the connection dropped. Nothing you entered was lost if it was saved before. Try again in a
        moment.
      </p>
      {error.digest && <p className="mt-2 text-xs text-slate-600">Reference: {error.digest}</p>}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <button type="button" onClick={reset} className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
          Try again
        </button>
        <Link href="/" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
          Go to the dashboard
        </Link>
      </div>
    </div>
  );
}
