import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { navigate, pick, signIn, unique } from './helpers';

const auth = { authorization: `Bearer ${E2E.apiKey}` };

test('the production server is ready, and refuses loopback and metadata targets beyond 127.0.0.1', async ({ request }) => {
  expect((await request.get('/api/health')).status()).toBe(200);
  const ready = await request.get('/api/ready');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ database: 'ok', migrations: 'ok', executor: 'running' });
  // This server runs in production with WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32: other loopback addresses,
  // and IPv6 forms that embed them, stay refused (issue 10, defect 2).
  for (const url of ['http://127.0.0.2:9/evil', 'http://[::7f00:2]:9/evil', 'http://[::ffff:127.0.0.2]:9/', 'http://169.254.169.254/latest/meta-data']) {
    const res = await request.post('/api/v1/webhook', { headers: auth, data: { display: 'Evil', url, triggers: [{ event: 'member_create' }] } });
    expect(res.status(), url).toBe(400);
    expect((await res.json()).errors[0]).toMatchObject({ path: 'url', message: expect.stringContaining('Refused to call') });
  }
  const idp = await request.post('/api/v1/identity-provider', { headers: auth, data: { display: 'Evil', issuer: 'http://127.0.0.2:9/realm', clientId: 'c', clientSecret: 's' } });
  expect(idp.status()).toBe(400);
});

test('sign-in is refused for a while after too many wrong passwords for one account', async ({ page }) => {
  const email = `${unique('guess')}@e2e.test`;
  await page.goto('/login');
  for (let i = 0; i < 10; i++) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(`wrong-${i}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The form clears the password once the answer is in.
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password');
  }
  await page.getByLabel('Password').fill('wrong-again');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(/^Too many failed sign-ins\. Try again in 1[45] minutes\.$/);
  // Another account from the same browser is not affected.
  await signIn(page);
});

test('pickers search past 200 members and lists page instead of stopping at a limit (defect 11)', async ({ page, request }) => {
  const tag = unique('many');
  // Integrations list by id, 25 a page: count what is already there, so the test holds on a database an
  // earlier run (or --repeat-each) has added to.
  const existing = await request.get('/api/v1/integration?limit=1000', { headers: auth });
  expect(existing.status()).toBe(200);
  const total = ((await existing.json()) as unknown[]).length + 27;
  const lastPage = Math.ceil(total / 25);
  for (let i = 0; i < 205; i++) {
    const res = await request.post('/api/v1/member', { headers: auth, data: { name: `Person ${tag} ${String(i).padStart(3, '0')}` } });
    expect(res.status()).toBe(201);
  }
  for (let i = 0; i < 27; i++) {
    const res = await request.post('/api/v1/integration', { headers: auth, data: { display: `System ${tag} ${String(i).padStart(2, '0')}`, slug: `${tag}-${i}` } });
    expect(res.status()).toBe(201);
  }
  await signIn(page);

  // The 205th member is found by searching the picker.
  await navigate(page, 'Records');
  await page.getByRole('button', { name: 'New record' }).first().click();
  const form = page.getByRole('form', { name: 'New record' });
  await pick(form, 'Member', `Person ${tag} 204`);
  await expect(form.getByRole('combobox', { name: 'Member' })).toHaveValue(`Person ${tag} 204`);

  // The integrations list pages, 25 rows (and a header) to a page; on a fresh database its 28 integrations
  // (the default one too) are 25 + 3. The last one made is on the last page, where Next is disabled.
  await navigate(page, 'Integrations & keys');
  const table = page.getByRole('table', { name: 'Integrations' });
  const pages = page.getByRole('navigation', { name: 'Pages' });
  const next = pages.getByRole('button', { name: 'Next' });
  await expect(table.getByRole('row')).toHaveCount(26);
  for (let n = 2; n <= lastPage; n++) {
    await next.click();
    await expect(pages).toContainText(`Page ${n}`);
    if (n < lastPage) await expect(table.getByRole('row')).toHaveCount(26);
  }
  await expect(table).toContainText(`System ${tag} 26`);
  await expect(table.getByRole('row')).toHaveCount(1 + total - 25 * (lastPage - 1));
  await expect(next).toBeDisabled();
});
