'use client';

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

type Tone = 'success' | 'error' | 'info';
type Toast = { id: number; message: string; tone: Tone };
type Notify = (message: string, tone?: Tone) => void;

const ToastContext = createContext<Notify | null>(null);

/**
 * The console's confirmations: after every change a short message ("Member saved") appears at the bottom
 * of the screen and is announced to screen readers; it goes by itself after a few seconds (errors stay
 * until closed). Messages survive a router refresh because they live above the page.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const notify = useCallback<Notify>((message, tone = 'success') => {
    const id = next.current++;
    setToasts((list) => [...list.slice(-3), { id, message, tone }]);
  }, []);
  const close = (id: number) => setToasts((list) => list.filter((t) => t.id !== id));
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div aria-live="polite" role="region" aria-label="Notifications" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onClose={() => close(t.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

const TONES: Record<Tone, string> = {
  success: 'bg-slate-900 text-white',
  info: 'bg-slate-900 text-white',
  error: 'bg-red-700 text-white',
};

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  useEffect(() => {
    if (toast.tone === 'error') return;
    const timer = setTimeout(onClose, 6_000);
    return () => clearTimeout(timer);
  }, [toast.tone, onClose]);
  return (
    <div className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ${TONES[toast.tone]}`}>
      <span aria-hidden className="mt-0.5">
        {toast.tone === 'error' ? '!' : '✓'}
      </span>
      <p role={toast.tone === 'error' ? 'alert' : 'status'} className="flex-1">
        {toast.message}
      </p>
      <button type="button" onClick={onClose} className="rounded px-1 text-white/80 hover:text-white" aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error('useToast outside a ToastProvider');
  return notify;
}
