'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useUnsavedChanges } from './unsaved';

const serialise = (form: HTMLFormElement) =>
  JSON.stringify(
    [...new FormData(form).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]),
  );

/**
 * Unsaved changes of a form whose fields keep their own values (defaultValue): the values as first shown
 * are the baseline, and the form is dirty while what it holds differs from them, compared as values, not
 * by "was anything typed". Leaving a dirty form asks first (useUnsavedChanges).
 */
export function useDirtyForm(enabled = true) {
  const ref = useRef<HTMLFormElement>(null);
  const baseline = useRef<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const check = useCallback(() => {
    const form = ref.current;
    if (!form || baseline.current === null) return;
    setDirty(serialise(form) !== baseline.current);
  }, []);
  useEffect(() => {
    const form = ref.current;
    if (!form) return;
    baseline.current = serialise(form);
    form.addEventListener('input', check);
    form.addEventListener('change', check);
    return () => {
      form.removeEventListener('input', check);
      form.removeEventListener('change', check);
    };
  }, [check]);
  /** After saving: what the form holds now is the new baseline. */
  const reset = useCallback(() => {
    if (ref.current) baseline.current = serialise(ref.current);
    setDirty(false);
  }, []);
  useUnsavedChanges(enabled && dirty);
  return { ref, dirty: enabled && dirty, reset, check };
}
