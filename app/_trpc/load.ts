import { TRPCError } from '@trpc/server';
import { notFound } from 'next/navigation';

/**
 * Loads what a detail page is about on the server: a resource that does not exist (or is not in the
 * project) is the 404 page, with its status, not a page that tries and fails in the browser. Admin-only
 * resources answer null to coordinators (the page explains instead).
 */
export async function loadOrNotFound<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (e) {
    if (e instanceof TRPCError && (e.code === 'NOT_FOUND' || e.code === 'BAD_REQUEST')) notFound();
    if (e instanceof TRPCError && e.code === 'FORBIDDEN') return null;
    throw e;
  }
}

/** A positive integer from a path segment, or the 404 page. */
export function idFrom(segment: string): number {
  const id = Number(segment);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) notFound();
  return id;
}
