import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '@/server/errors';

const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : zodFieldErrors(r.error).map((e) => e.message);
};

describe('messages for people', () => {
  it('replace zod defaults', () => {
    expect(messages(z.object({ n: z.number().positive() }), { n: 0 })).toEqual(['Must be more than 0']);
    expect(messages(z.object({ n: z.number().int() }), { n: 1.5 })).toEqual(['Must be a whole number']);
    expect(messages(z.object({ s: z.string().min(1) }), { s: '' })).toEqual(['Required']);
    expect(messages(z.object({ s: z.string() }), {})).toEqual(['Required']);
    expect(messages(z.object({ s: z.string().max(3) }), { s: 'long' })).toEqual(['Use at most 3 characters']);
    expect(messages(z.object({ e: z.email() }), { e: 'x' })).toEqual(['Enter an email address, like name@example.org']);
    expect(messages(z.object({ k: z.enum(['a', 'b']) }), { k: 'c' })).toEqual(['Choose one of: a, b']);
    expect(messages(z.object({ n: z.number() }), { n: 'x' })).toEqual(['Must be a number']);
  });

  it('leave messages that schemas state themselves', () => {
    expect(messages(z.object({ s: z.string().min(1, 'Give it a name') }), { s: '' })).toEqual(['Give it a name']);
  });
});
