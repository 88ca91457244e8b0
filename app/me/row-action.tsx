/** One line of a member's list (to-do or inbox) with its one action, a server action given the row's id. */
export function ListRow({ children, action }: { children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <li className="flex items-start justify-between gap-4 px-4 py-3">
      <div>{children}</div>
      {action}
    </li>
  );
}

export function RowAction({ action, id, label, text, primary }: { action: (formData: FormData) => Promise<void>; id: number; label: string; text: string; primary?: boolean }) {
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        aria-label={label}
        className={`whitespace-nowrap text-sm font-medium ${primary ? 'rounded-md bg-brand-600 px-3 py-1.5 text-white hover:bg-brand-700' : 'text-brand-700 hover:underline'}`}
      >
        {text}
      </button>
    </form>
  );
}
