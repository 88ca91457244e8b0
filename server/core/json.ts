import { z } from 'zod';
import type { FieldError } from '@/server/errors';

/**
 * JSON that may be stored. PostgreSQL rejects `\u0000` and unpaired surrogates in text and jsonb, and the
 * embedded PGlite (WebAssembly) crashes on jsonb nested a few thousand levels deep, so every value from
 * outside (bodies, query strings, tRPC input, webhook answers, identity provider claims) is checked here
 * before it reaches a query: at most 64 levels of nesting, and well-formed strings without NUL, in keys
 * as in values (CONTRACT 1).
 */
export const MAX_JSON_DEPTH = 64;
const MAX_REPORTED = 100;

// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE_KEY_CHARS = /[\u0000\uD800-\uDFFF]/g;
const join = (base: string, key: string | number) => (base ? `${base}.${key}` : String(key));

/** Why a string cannot be stored, or null when it can. */
export function unsafeStringReason(s: string): string | null {
  if (s.includes('\u0000')) return 'Contains a NUL character (\\u0000)';
  if (!s.isWellFormed()) return 'Contains an unpaired UTF-16 surrogate';
  return null;
}

/**
 * Every place (dotted path from `prefix`) where a parsed JSON value cannot be stored, at most 100. Walks
 * iteratively: the value may be nested far deeper than the call stack allows.
 */
export function unsafeJsonPlaces(value: unknown, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: value, path: prefix, depth: 0 }];
  while (stack.length > 0 && errors.length < MAX_REPORTED) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const reason = unsafeStringReason(v);
      if (reason) errors.push({ path: path || '(body)', message: reason });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > MAX_JSON_DEPTH) {
      errors.push({ path: path || '(body)', message: `Nested deeper than ${MAX_JSON_DEPTH} levels` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (typeof key === 'string') {
        const reason = unsafeStringReason(key);
        if (reason) errors.push({ path: join(path, key.replace(UNSAFE_KEY_CHARS, '\uFFFD')), message: `Key: ${reason}` });
      }
      stack.push({ v: child, path: join(path, key), depth: depth + 1 });
    }
  }
  return errors.slice(0, MAX_REPORTED);
}

export const isSafeJson = (value: unknown) => unsafeJsonPlaces(value).length === 0;

/** A free-form JSON object (member `meta`, record `fields`). Its safety is checked for the whole input. */
export const jsonObject = z.record(z.string(), z.unknown());

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

/** Text from outside made storable as-is in a text column: NUL and unpaired surrogates become U+FFFD. */
export const storableText = (s: string) => s.replaceAll('\u0000', '\uFFFD').toWellFormed();
