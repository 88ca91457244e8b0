'use client';

import { useActionState } from 'react';
import type { RowActionState } from './actions';

/** One line of a member's list (to-do or inbox) with its one action, a server action given the row's id. */
export function ListRow({ children, action }: { children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <li className="flex items-start justify-between gap-4 px-4 py-3">
      <div className="min-w-0">{children}</div>
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
        className={`whitespace-nowrap text-sm font-medium disabled:opacity-60 ${primary ? 'rounded-md bg-brand-600 px-3 py-1.5 text-white hover:bg-brand-700' : 'text-brand-700 hover:underline'}`}
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
