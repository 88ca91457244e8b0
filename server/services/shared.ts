import { eq, ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError, invalid, invalidField } from '@/server/errors';
import { BlockedTargetError, checkUrlTarget, type Resolver } from '@/server/webhooks/safety';


/**
 * `<id|slug>` in a path: all digits may be either (slugs may start with a digit), so both are matched and
 * an exact id wins over a slug.
 */
export function idOrSlugWhere(idColumn: AnyPgColumn, slugColumn: AnyPgColumn, text: string): SQL {
  return /^\d{1,10}$/.test(text) && Number(text) <= 2147483647 ? or(eq(idColumn, Number(text)), eq(slugColumn, text))! : eq(slugColumn, text);
}

/** A case-insensitive `ILIKE` pattern for a search term, with its wildcards escaped. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Matches any of the columns by a case-insensitive search term (undefined when there is no term). */
export function searchWhere(term: string | undefined, ...columns: AnyPgColumn[]): SQL | undefined {
  if (!term) return undefined;
  const pattern = containsPattern(term);
  return or(...columns.map((c) => ilike(c, pattern)));
}

export function preferExactId<T extends { id: number }>(rows: T[], text: string): T | undefined {
  return rows.find((r) => String(r.id) === text) ?? rows[0];
}

/**
 * An address the server will call (an integration's endpoint, an identity provider's issuer) must pass
 * the outbound policy when it is saved: a clear 400 naming the field instead of a refusal at call time.
 */
export async function requireCallableUrl(url: string, path: string, resolver?: Resolver): Promise<void> {
  try {
    await checkUrlTarget(new URL(url), resolver);
  } catch (e) {
    if (e instanceof BlockedTargetError) throw invalidField(path, e.message);
    throw invalidField(path, 'Not a valid URL');
  }
}

/**
 * Runs independent checks together and reports the field errors of all that failed at once (CONTRACT 1:
 * every failing place listed); any other failure is thrown as it is. Answers the checks' values in order.
 */
export async function allFieldErrors<T extends readonly unknown[]>(checks: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(checks);
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length === 0) return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
  const fields = failures.filter((f): f is AppError => f instanceof AppError && f.code === 'invalid_request' && f.errors !== undefined);
  if (fields.length === failures.length) throw invalid(fields.flatMap((f) => f.errors!));
  throw failures.find((f) => !fields.includes(f as AppError));
}
