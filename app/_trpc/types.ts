import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/root';

/** What procedures answer and take: the UI's types come from here, not from copies. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
/** The item type of a paged list procedure's answer. */
export type ItemOf<T extends { items: unknown[] }> = T['items'][number];
