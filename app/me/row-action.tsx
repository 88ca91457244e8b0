'use client';

import { useActionState } from 'react';
import type { RowActionState } from './actions';

/** One line of a member's list (to-do or inbox) with its one action, a server action given the row's id. */
export function ListRow({ children, action }: { children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0 flex-1 basis-56">{children}</div>
      {action}
    </li>
  );
}

export function RowAction({
  action,
  id,
  label,
  text,
  primary,
}: {
  action: (prev: RowActionState, formData: FormData) => Promise<RowActionState>;
  id: number;
  label: string;
  text: string;
  primary?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex shrink-0 flex-col items-end gap-1">
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        aria-label={label}
        disabled={pending}
        className={`whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60 ${primary ? 'bg-brand-600 text-white hover:bg-brand-700' : 'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50'}`}
      >
        {pending ? 'Saving…' : text}
      </button>
      {state.error && (
        <p role="alert" className="max-w-56 text-right text-xs text-red-700">
          {state.error}
        </p>
      )}
    </form>
  );
}
