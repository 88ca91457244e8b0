import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { E2E } from '../playwright.config';
import { navigate, signIn, snap, unique } from './helpers';

type Hit = { headers: http.IncomingHttpHeaders; body: string };

test('an admin registers a webhook, sees deliveries and attempts, tests, rotates and retries', async ({ page, request }) => {
  const hits: Hit[] = [];
  let failing = false;
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      res.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' }).end(failing ? '{"error":"down"}' : '{"received":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/carebase`;
  const api = (path: string, data: unknown) =>
    request.post(`/api/v1${path}`, { data, headers: { authorization: `Bearer ${E2E.apiKey}` } });

  try {
    await signIn(page);
    await navigate(page, 'Webhooks');
    await page.getByRole('link', { name: 'New webhook' }).first().click();
    const form = page.getByRole('form', { name: 'Create webhook' });
    const name = unique('Members to CRM');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('URL', { exact: true }).fill(url);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect(form.getByRole('alert')).toHaveText('Choose at least one event');
    await form.getByLabel('member_create strategy').selectOption('after');
    await form.getByLabel('member_update strategy').selectOption('after');
    await expect(form.getByRole('alert')).toHaveCount(0);
    await snap(page, 'webhook-new');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByLabel('Signing secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // An operation through the API is delivered, signed with the secret shown once.
    expect((await api('/member', { name: 'Webhook Person' })).status()).toBe(201);
    await expect.poll(() => hits.length, { timeout: 10_000 }).toBe(1);
    const payload = new Webhook(secret).verify(hits[0]!.body, {
      'webhook-id': hits[0]!.headers['webhook-id'] as string,
      'webhook-timestamp': hits[0]!.headers['webhook-timestamp'] as string,
      'webhook-signature': hits[0]!.headers['webhook-signature'] as string,
    }) as { event: string; params: { name: string } };
    expect(payload).toMatchObject({ event: 'member_create', params: { name: 'Webhook Person' } });
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row').nth(1)).toContainText('delivered');
    await expect(log.getByRole('row').nth(1)).toContainText('member_create');

    // The attempt view shows the request and the answer.
    await log.getByRole('link', { name: `#${hits[0]!.headers['webhook-id']}` }).click();
    await expect(page.getByText('HTTP 200')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Request headers' }).first()).toContainText('webhook-signature');
    await expect(page.getByText('{"received":true}')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Request body' })).toContainText('"Webhook Person"');
    await snap(page, 'webhook-delivery');
    await page.getByRole('link', { name: /← Webhook #/ }).click();

    // Test send.
    await page.getByLabel('Event', { exact: true }).first().selectOption('careplan_create');
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('status', { name: 'Test result' })).toContainText('HTTP 200');
    expect(JSON.parse(hits.at(-1)!.body)).toMatchObject({ event: 'careplan_create' });

    // Rotation: both secrets sign for a day.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Rotate' }).click();
    const rotated = (await page.getByLabel('Secret value').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    // A failing receiver: the delivery waits for a retry; Retry sends it now.
    failing = true;
    const before = hits.length;
    expect((await api('/member', { name: 'Second Person' })).status()).toBe(201);
    await expect.poll(() => hits.length, { timeout: 10_000 }).toBe(before + 1);
    expect(hits.at(-1)!.headers['webhook-signature']!.toString().split(' ')).toHaveLength(2);
    await page.getByLabel('Status').selectOption('pending');
    await expect(log.getByRole('row')).toHaveCount(2);
    failing = false;
    await snap(page, 'webhook-detail');
    await log.getByRole('button', { name: /^Retry delivery/ }).click();
    await page.getByLabel('Status').selectOption('delivered');
    await expect(log.getByRole('row')).toHaveCount(4);

    // The dashboard no longer lists this webhook as failing once the retry succeeded (other tests'
    // webhooks may still be failing on the shared server).
    await navigate(page, 'Dashboard');
    const failingList = page.getByRole('region', { name: 'Failing webhooks' });
    await expect(failingList.getByRole('link', { name: 'All webhooks' })).toBeVisible();
    await expect(failingList).not.toContainText(name);
  } finally {
    await new Promise<void>((r) => (receiver.closeAllConnections(), receiver.close(() => r())));
  }
});
