'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, SelectField } from '@/app/_components/ui';

/** Two versions to compare side by side: the one before the latest and the latest, unless chosen otherwise. */
export function CompareForm({ base, versions, latest }: { base: string; versions: number[]; latest: number }) {
  const router = useRouter();
  const [from, setFrom] = useState(String(Math.max(1, latest - 1)));
  const [to, setTo] = useState(String(latest));
  return (
    <form
      className="mt-4 grid grid-cols-2 gap-2 border-t border-slate-100 pt-4"
      aria-label="Compare versions"
      onSubmit={(e) => {
        e.preventDefault();
        router.push(`${base}/compare?from=${from}&to=${to}`);
      }}
    >
      <SelectField label="Compare" value={from} onChange={(e) => setFrom(e.target.value)}>
        {versions.map((v) => (
          <option key={v} value={v}>
            Version {v}
          </option>
        ))}
      </SelectField>
      <SelectField label="with" value={to} onChange={(e) => setTo(e.target.value)}>
        {versions.map((v) => (
          <option key={v} value={v}>
            Version {v}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary" className="col-span-2" disabled={from === to}>
        Compare side by side
      </Button>
    </form>
  );
}
