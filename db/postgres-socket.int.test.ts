import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb, migrateDb } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { resetEnvForTests } from '@/server/env';

/**
 * A DATABASE_URL may name PostgreSQL's Unix socket the way libpq does (`?host=<directory>`). postgres.js
 * passed `host` on to the server as a setting, which refused the session (db/postgres-url.ts). Runs on a
 * PostgreSQL on this machine with its socket in Debian's directory (the CI's).
 */
const SOCKET_DIR = '/var/run/postgresql';
const original = process.env.DATABASE_URL;
const local = original !== undefined && ['127.0.0.1', 'localhost'].includes(new URL(original).hostname);
const socketThere = local && fs.existsSync(`${SOCKET_DIR}/.s.PGSQL.${new URL(original!).port || 5432}`);

describe.runIf(socketThere)('DATABASE_URL naming the Unix socket', () => {
  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = original;
    resetEnvForTests();
  });

  it('migrates and serves over the socket, on the database the URL names', async () => {
    const url = new URL(original!);
    url.searchParams.set('host', SOCKET_DIR);
    await closeDb();
    process.env.DATABASE_URL = url.toString();
    resetEnvForTests();
    await migrateDb();
    const [row] = rowsOf<{ addr: string | null; db: string }>(await (await getDb()).execute(sql`select inet_client_addr() as addr, current_database() as db`));
    // No client address: a Unix socket, not TCP.
    expect(row).toEqual({ addr: null, db: url.pathname.slice(1) });
  });
});
