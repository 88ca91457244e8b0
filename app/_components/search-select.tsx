'use client';

import { useDeferredValue, useId, useRef, useState, type KeyboardEvent } from 'react';
import { describedBy, FieldNote } from './ui';

export type PickOption = { id: number; label: string; detail?: string };
export type OptionsSource = (search: string) => { options: PickOption[]; isLoading: boolean; hasMore: boolean };

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

/**
 * A searchable picker (WAI-ARIA combobox with a listbox): the options come from the server page by page
 * for what was typed, so a project with 10,000 members is searched, never truncated. `useOptions` is a
 * hook, called on every render with the current search text.
 */
export function SearchSelect({
  label,
  value,
  selectedLabel,
  onChange,
  useOptions,
  placeholder = 'Type to search',
  error,
  hint,
  required,
  className,
}: {
  label: string;
  value: number | null;
  selectedLabel?: string;
  onChange: (option: PickOption | null) => void;
  useOptions: OptionsSource;
  placeholder?: string;
  error?: string | null;
  hint?: string;
  required?: boolean;
  className?: string;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useDeferredValue(text);
  const { options, isLoading, hasMore } = useOptions(search.trim());
  const inputRef = useRef<HTMLInputElement>(null);

  const choose = (option: PickOption | null) => {
    onChange(option);
    setOpen(false);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, Math.max(options.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      if (options[active]) choose(options[active]!);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setText('');
    }
  };
  const shown = open ? text : value !== null ? (selectedLabel ?? `#${value}`) : '';

  return (
    <div className={cx('relative', className)}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-1.5">
        <input
          id={id}
          ref={inputRef}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? `${listId}-${options[active]!.id}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          aria-required={required || undefined}
          autoComplete="off"
          placeholder={placeholder}
          value={shown}
          onFocus={() => {
            setOpen(true);
            setActive(0);
          }}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className={cx(
            'block w-full rounded-md border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-xs ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:ring-brand-500',
            error ? 'ring-red-400' : 'ring-slate-300',
          )}
        />
        {value !== null && !required && (
          <button
            type="button"
            onClick={() => choose(null)}
            className="shrink-0 rounded-md px-2 text-sm text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            aria-label={`Clear ${label.toLowerCase()}`}
          >
            Clear
          </button>
        )}
      </div>
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200"
        >
          {options.map((o, i) => (
            <li
              key={o.id}
              id={`${listId}-${o.id}`}
              role="option"
              aria-selected={o.id === value}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              onMouseEnter={() => setActive(i)}
              className={cx('cursor-pointer px-3 py-1.5', i === active && 'bg-brand-50', o.id === value && 'font-semibold')}
            >
              <span className="text-slate-900">{o.label}</span>
              {o.detail && <span className="ml-2 text-xs text-slate-500">{o.detail}</span>}
            </li>
          ))}
          {!isLoading && options.length === 0 && <li className="px-3 py-1.5 text-slate-500">No matches</li>}
          {isLoading && <li className="px-3 py-1.5 text-slate-500">Searching…</li>}
          {hasMore && <li className="px-3 py-1.5 text-xs text-slate-500">More match; type to narrow the list.</li>}
        </ul>
      )}
      <FieldNote id={id} error={error} hint={hint} />
    </div>
  );
}
