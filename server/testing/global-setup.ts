import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type postgres from 'postgres';
import { postgresClient } from '@/db/postgres-url';
import { ensureBuild } from '@/scripts/ensure-build';
import { databaseOf, OWN_DATABASE_FILES, ownDatabaseName, withDatabase } from './own-databases';

/**
 * On PostgreSQL, start each run from an empty schema so migrations are tested from scratch; refuses any
 * database whose name does not end in "test", and copies it once migrated for the files that run an executor
 * (server/testing/own-databases.ts). On PGlite (in memory, one per test file) the migrations run
 * here once, into the template every test file's database starts from.
 */
export default async function setup(): Promise<void | (() => void | Promise<void>)> {
  // The HTTP tests serve the production build in process; build it when the sources changed.
  ensureBuild();
  const url = process.env.DATABASE_URL;
  if (!url) {
    // Each test file opens its own in-memory PGlite: from a migrated template made here once, not by
    // initdb and every migration again (4.5 s of CPU per file; 1.1 s from the template).
    if (process.env.PGLITE_TEMPLATE) return;
    const file = path.join(os.tmpdir(), `carebase-pglite-template-${process.pid}.tar`);
    const { writePgliteTemplate } = await import('@/db/client');
    await writePgliteTemplate(file);
    process.env.PGLITE_TEMPLATE = file;
    return () => fs.rmSync(file, { force: true });
  }
  const name = databaseOf(url);
  if (!name.endsWith('test')) throw new Error(`Refusing to reset database "${name}": tests need one named *test`);
  const sql = postgresClient(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;');
  await sql.end();
  process.env.CAREBASE_TEST_DB = name;
  const { migrateDb, closeDb } = await import('@/db/client');
  await migrateDb();
  await closeDb();
  // The executor files' own databases: copies of the migrated one, made once nothing is connected to it,
  // from the maintenance database (a session on the template would stop the copy).
  const owned = OWN_DATABASE_FILES.map((file) => ownDatabaseName(name, file));
  const onServer = async (work: (server: postgres.Sql) => Promise<void>) => {
    const server = postgresClient(withDatabase(url, 'postgres'), { max: 1, onnotice: () => {} });
    try {
      await work(server);
    } finally {
      await server.end();
    }
  };
  const dropOwned = async (server: postgres.Sql) => {
    for (const db of owned) await server.unsafe(`drop database if exists "${db}" with (force)`);
  };
  await onServer(async (server) => {
    await dropOwned(server);
    for (const db of owned) await server.unsafe(`create database "${db}" template "${name}"`);
  });
  return () => onServer(dropOwned);
}
