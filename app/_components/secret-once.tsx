'use client';

import { useState } from 'react';
import { Button } from './ui';

/** Shows a freshly issued secret once, with a copy button and a warning that it will not be shown again. */
export function SecretOnce({
  label,
  secret,
  onDone,
  note = 'Copy it now: it is stored only as a hash and will not be shown again.',
}: {
  label: string;
  secret: string;
  onDone: () => void;
  note?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200">
      <p className="text-sm font-semibold text-amber-900">{label}</p>
      <p className="mt-1 text-sm text-amber-800">{note}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code aria-label={label} className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900 ring-1 ring-amber-200">
          {secret}
        </code>
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
