import { eq, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Page } from '@/server/http/define-route';

export const iso = (d: Date) => d.toISOString();

/** Names used in paths and as roles: a letter, then letters, digits, `_` or `-`. */
export const namePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const slugPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const jsonObject = z.record(z.string(), z.unknown());

/** Keyset page: rows after `afterId`, one more than asked so the caller knows whether a next page exists. */
export const pageLimit = (page?: Page) => (page?.limit ?? 100) + 1;
export const afterId = (page?: Page) => page?.afterId ?? 0;

/** JSON Merge Patch (RFC 7396). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

/**
 * `<id|slug>` in a path: all digits may be either (slugs may start with a digit), so both are matched and
 * an exact id wins over a slug.
 */
export function idOrSlugWhere(idColumn: AnyPgColumn, slugColumn: AnyPgColumn, text: string): SQL {
  return /^\d+$/.test(text) ? or(eq(idColumn, Number(text)), eq(slugColumn, text))! : eq(slugColumn, text);
}

export function preferExactId<T extends { id: number }>(rows: T[], text: string): T | undefined {
  return rows.find((r) => String(r.id) === text) ?? rows[0];
}
