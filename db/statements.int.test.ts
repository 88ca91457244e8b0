import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '@/db/client';
import { members, memberTokens } from '@/db/schema';
import { newProject } from '@/server/testing/api';
import { insertPlaceholders, statement } from './statements';

/** db/statements on the database the suite runs on (PGlite, or PostgreSQL with DATABASE_URL). */
describe('statements built once per shape', () => {
  const FIELDS = ['projectId', 'memberId', 'tokenHash', 'revokedAt'] as const;
  const builds: number[] = [];
  const insertTokens = statement((db: Queryable, n: number) => {
    builds.push(n);
    return db
      .insert(memberTokens)
      .values(Array.from({ length: n }, (_, i) => insertPlaceholders<typeof memberTokens>(FIELDS, i)))
      .returning()
      .prepare(`test_token_insert_${n}`);
  });
  const addMember = statement((db: Queryable, key: 'add') => {
    builds.push(-1);
    expect(key).toBe('add');
    return db.insert(members).values(insertPlaceholders<typeof members>(['projectId', 'name', 'meta'])).returning().prepare('test_member_add');
  });

  it('runs on the database and in a transaction, encodes values as drizzle does, keeps null, and builds each shape once', async () => {
    const { projectId, db } = await newProject('statements');
    const [member] = await db.insert(members).values({ projectId, name: 'Pat' }).returning();
    const revoked = new Date('2026-03-04T05:06:07.089Z');
    const row = (k: string, revokedAt: Date | null) => ({ projectId, memberId: member!.id, tokenHash: `${k}-${Date.now()}-${Math.random()}`, revokedAt });

    // On the database: a Date through the timestamp column's encoder, null left null (drizzle's own fill throws on it).
    const two = await insertTokens.run(db, 2, [row('a', revoked), row('b', null)]);
    expect(two.map((t) => t.revokedAt)).toEqual([revoked, null]);
    expect(two[0]!.createdAt).toBeInstanceOf(Date);
    const again = await insertTokens.run(db, 2, [row('c', null), row('d', revoked)]);
    expect(again.map((t) => t.revokedAt)).toEqual([null, revoked]);

    // In a transaction, on its connection: what it wrote goes when the transaction rolls back.
    const rolledBack = row('e', null);
    await expect(
      db.transaction(async (tx) => {
        const [inside] = await insertTokens.run(tx, 1, [rolledBack]);
        const seen = await tx.select().from(memberTokens).where(eq(memberTokens.id, inside!.id));
        expect(seen).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.select().from(memberTokens).where(eq(memberTokens.tokenHash, rolledBack.tokenHash))).toEqual([]);

    // Named placeholders; a jsonb value through its encoder.
    const [sam] = await addMember.run(db, 'add', { projectId, name: 'Sam', meta: { tier: 2 } });
    expect(sam).toMatchObject({ projectId, name: 'Sam', meta: { tier: 2 } });
    const [nameless] = await addMember.run(db, 'add', { projectId, name: null, meta: {} });
    expect((await db.select().from(members).where(eq(members.id, nameless!.id)))[0]).toMatchObject({ name: null, meta: {} });

    // A missing value is a programming error, caught before anything is sent.
    await expect(addMember.run(db, 'add', { projectId, meta: {} })).rejects.toThrow("No value for the statement's placeholder name");

    // Past 32 rows a shape is built for its run and not kept.
    const many = Array.from({ length: 33 }, (_, i) => row(`m${i}`, i % 2 ? revoked : null));
    expect((await insertTokens.run(db, 33, many)).filter((t) => t.revokedAt === null)).toHaveLength(17);
    await insertTokens.run(db, 33, many.map((r) => ({ ...r, tokenHash: `${r.tokenHash}-2` })));
    expect(builds).toEqual([2, 1, -1, 33, 33]);
  });
});
