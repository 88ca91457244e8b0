import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDbHandle } from '@/db/client';
import { apiClient, newProject } from '@/server/testing/api';
import { withApiContext } from './api-auth';

afterEach(() => vi.restoreAllMocks());

describe('the database gate (CONTRACT 1: 503 when the database cannot keep up)', () => {
  it('refuses a request that waits a second for a slot with 503 and Retry-After, logs how the slots stood, and serves again once they free', async () => {
    const { apiKey } = await newProject();
    const { concurrency } = await getDbHandle();
    const warn = vi.spyOn(console, 'warn');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const started: Promise<void>[] = [];
    const holders = Array.from({ length: concurrency }, () => {
      let began!: () => void;
      started.push(new Promise<void>((r) => (began = r)));
      return withApiContext(
        { headers: new Headers({ authorization: `Bearer ${apiKey}` }), url: new URL('http://127.0.0.1/api/v1/member'), clientAddress: '127.0.0.1' },
        {},
        async () => {
          began();
          await held;
        },
      );
    });
    await Promise.all(started);

    const t0 = performance.now();
    const refused = await apiClient(apiKey).call('GET', '/member');
    expect(refused.status).toBe(503);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
    expect(refused.body).toMatchObject({ code: 'unavailable', status: 503 });
    expect(refused.headers.get('retry-after')).toBe('1');
    const line = warn.mock.calls.map((c) => String(c[0])).find((l) => l.startsWith('[db-gate]'));
    expect(line).toMatch(new RegExp(`^\\[db-gate\\] 1 request\\(s\\) refused \\(503\\) after waiting \\d+ ms for a database slot: ${concurrency} of ${concurrency} slots held, the oldest for \\d+ ms; 0 still waiting$`));
    expect(Number(/the oldest for (\d+) ms/.exec(line!)![1])).toBeGreaterThanOrEqual(950);

    release();
    await Promise.all(holders);
    expect((await apiClient(apiKey).call('GET', '/member')).status).toBe(200);
  });
});
