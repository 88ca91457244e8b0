'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/app/_trpc/client';
import { messageForPeople } from './error-messages';
import { useToast } from './toast';

type Options<D> = { onSuccess?: (data: D, ...rest: never[]) => unknown; onError?: (error: never, ...rest: never[]) => unknown };

/**
 * The console's one way of saying a change happened: wraps a mutation's options so that success shows a
 * confirmation ("Webhook saved") and, unless the form shows the failure at its fields (`quietErrors`), a
 * failure shows a sentence for people. Buttons stay disabled while the mutation is pending (Button busy).
 */
export function useSaving() {
  const toast = useToast();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return function saving<D, O extends Options<D>>(options: O & Options<D>, success: string | ((data: D) => string), opts: { quietErrors?: boolean } = {}): O {
    return {
      ...options,
      onSuccess: async (data: D, ...rest: never[]) => {
        await options.onSuccess?.(data, ...rest);
        toast(typeof success === 'function' ? success(data) : success);
        // Every change is in the audit trail: histories on the page show it at once.
        void queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() });
      },
      onError: (error: never, ...rest: never[]) => {
        options.onError?.(error, ...rest);
        if (!opts.quietErrors) toast(messageForPeople(error), 'error');
      },
    } as O;
  };
}
