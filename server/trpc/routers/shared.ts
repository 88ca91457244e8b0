import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import type { Page } from '@/server/core/page';

/**
 * Keyset paging for UI lists: `cursor` is the `next` of the previous page (a row id), absent for the
 * first. Answers are the services' `Paged` lists: `{items, next}`.
 */
export const pageInput = {
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.number().int().min(0).nullish(),
};
export const pageOf = (input: { limit: number; cursor?: number | null }, newestFirst = false): Page => ({
  limit: input.limit,
  afterId: input.cursor ?? 0,
  newestFirst,
});

/** A bare list input: paging plus an optional case-insensitive search. */
export const searchPageInput = z.object({ search: z.string().trim().max(200).optional(), ...pageInput }).default({ limit: 50 });
export const byId = z.object({ id: idSchema });
