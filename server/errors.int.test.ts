import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { asAppError, errorSummary } from './errors';

describe('logs carry no values (defect 7)', () => {
  it('summarises a failed query by its kind, SQLSTATE and statement, without its parameters or the database message', async () => {
    const db = await getDb();
    const secret = 'Ada Lovelace, meta {"diagnosis":"private"}';
    const error = await db.execute(sql`select ${secret}::int`).catch((e: unknown) => e);
    const summary = errorSummary(error);
    expect(summary).not.toContain('Ada');
    expect(summary).not.toContain('private');
    expect(summary).toContain('code=22P02');
    expect(summary).toMatch(/sql="select \$1::int"/);
    // And the client hears 400, not 500: the database refused a value.
    expect(asAppError(error)).toMatchObject({ code: 'invalid_request' });
  });
});
