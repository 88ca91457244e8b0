'use client';

import type { z } from 'zod';
import { zodFieldErrors } from '@/server/errors';

/**
 * A form's values checked with the area's own zod input schema, the one REST and tRPC parse with, so
 * the browser shows the same field errors the server would, before sending anything. Paths are those
 * of the API (`email`, `triggers.0.event`), which is how fields look their errors up.
 */
export function checkWith<S extends z.ZodType>(schema: S, values: unknown): { value: z.output<S>; errors: null } | { value: null; errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { value: result.data, errors: null };
  const errors: Record<string, string> = {};
  for (const e of zodFieldErrors(result.error)) errors[e.path] ??= e.message;
  return { value: null, errors };
}
