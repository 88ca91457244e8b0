import { z } from 'zod';

/** Keyset paging for UI lists: the client passes the last id it has. */
export const pageInput = {
  limit: z.number().int().min(1).max(200).default(50),
  afterId: z.number().int().min(0).default(0),
};
