'use client';

import { useEffect, useRef } from 'react';

export const LEAVE_MESSAGE = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Warns before leaving a form with unsaved changes: closing or reloading the tab (the browser's own
 * prompt), following a link in the console, and the browser's back and forward buttons (a guard entry on
 * the history stack; going back past it asks first).
 */
export function useUnsavedChanges(dirty: boolean, message = LEAVE_MESSAGE): void {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const guarded = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.target === '_blank' || link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || (url.pathname === window.location.pathname && url.search === window.location.search)) return;
      if (!window.confirm(message)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    // Back and forward: a copy of this entry sits on top; leaving it (popstate) asks first.
    if (!guarded.current) {
      window.history.pushState(window.history.state, '', window.location.href);
      guarded.current = true;
    }
    const onPopState = () => {
      if (!dirtyRef.current || !guarded.current) return;
      if (window.confirm(message)) {
        guarded.current = false;
        window.history.back();
      } else {
        window.history.pushState(window.history.state, '', window.location.href);
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState);
    };
  }, [dirty, message]);
}
