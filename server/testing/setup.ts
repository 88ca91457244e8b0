import { afterAll, beforeAll } from 'vitest';
import { closeDb, migrateDb } from '@/db/client';

beforeAll(async () => {
  await migrateDb();
});

afterAll(async () => {
  await closeDb();
});
