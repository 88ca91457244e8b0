import { z } from 'zod';

/** Ids are positive 32-bit integers (the columns are `integer`). */
export const MAX_ID = 2147483647;
export const idSchema = z.number().int().positive().max(MAX_ID);

/** An id in a path: anything that is not a positive integer names nothing, so it is a 404, not a 400. */
export const idParam = z.coerce.number().int().positive().max(MAX_ID);

/** An optional id filter in a query string (`?memberId=3`). */
export const idFilter = z.coerce.number().int().positive().max(MAX_ID).optional();
