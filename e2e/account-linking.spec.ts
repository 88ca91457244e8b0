import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { startReceiver } from '../server/testing/receiver';
import { navigate, signIn as staffSignIn, snap, unique } from './helpers';
import { signInWithProvider, startIdentityProvider } from './oidc';

test('a member signs in through an OpenID Connect provider and sees only the records they may read', async ({ page, request }) => {
  const api = async (method: 'post' | 'get', path: string, data?: unknown) => {
    const res = await request[method](`/api/v1${path}`, { data, headers: { authorization: `Bearer ${E2E.apiKey}` } });
    return { status: res.status(), body: await res.json().catch(() => undefined) };
  };
  const tag = unique('oidc');
  const email = `${tag}@example.org`;

  // The project: a member whose email the provider will assert, a record type members may read, records.
  const member = (await api('post', '/member', { name: 'Oidc Member', email })).body;
  const other = (await api('post', '/member', { name: 'Someone Else' })).body;
  const type = unique('profile');
  await api('post', '/record-type', { type, permissions: { user: { read: true } } });
  await api('post', `/record/${type}`, { memberId: member.id, fields: { favourite: `tea-${tag}` } });
  await api('post', `/record/${type}`, { memberId: other.id, fields: { favourite: `coffee-${tag}` } });
  // A care plan whose activity starts at once, with a reminder: the member's to-do list and inbox.
  const plan = await api('post', '/careplan-definition', {
    slug: `${tag}-plan`,
    title: 'Daily check',
    actions: [{ key: 'mood', type: 'task', display: `Log your mood ${tag}`, start: { offset: 0, offsetUnit: 's' }, reminders: [{ offset: 0, offsetUnit: 's', body: 'Two minutes, today' }] }],
  });
  expect((await api('post', '/careplan', { definitionId: plan.body.id, subjectId: member.id })).status).toBe(201);
  const display = `Sign in with ${tag}`;
  const provider = await startIdentityProvider(request, display, {
    [tag]: { email, name: 'Oidc Member', email_verified: true },
    [`${tag}-stranger`]: { email: `stranger-${tag}@example.org`, name: 'Stranger' },
  });

  try {
    await signInWithProvider(page, display, tag);
    await expect(page).toHaveURL(/\/me$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Oidc');
    const records = page.getByRole('list', { name: 'What we have on file' });
    await expect(records).toContainText(`tea-${tag}`);
    await expect(records).not.toContainText(`coffee-${tag}`);
    // The scheduler makes the activity current within a second or two; the page shows it once it has.
    const tasks = page.getByRole('list', { name: 'Things to do now' });
    await expect(async () => {
      await page.reload();
      await expect(tasks).toContainText(`Log your mood ${tag}`, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const inbox = page.getByRole('list', { name: 'Your messages' });
    await expect(inbox).toContainText(`task: Log your mood ${tag}`);
    await expect(inbox).toContainText('Two minutes, today');
    await snap(page, 'member-home');
    await page.getByRole('button', { name: `Mark “task: Log your mood ${tag}” as read` }).click();
    await expect(page.getByRole('button', { name: `Mark “task: Log your mood ${tag}” as read` })).toHaveCount(0);
    await page.getByRole('button', { name: `Mark “Log your mood ${tag}” as done` }).click();
    await expect(page.getByText('Nothing to do right now')).toBeVisible();
    // Members have no business in the admin area.
    await page.goto('/members');
    await expect(page).toHaveURL(/\/me$/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login/);

    // With a handle webhook that names nobody in the project, a new account is refused.
    const hook = await startReceiver(() => ({ body: '{"memberId": 2147483000}' }));
    const webhook = await api('post', '/webhook', {
      display: 'link',
      url: `${hook.url}/link`,
      triggers: [{ event: 'account_link', strategy: 'handle' }],
    });
    expect(webhook.status).toBe(201);
    try {
      // A different person at the identity provider: forget its session from the first sign-in.
      await page.context().clearCookies();
      await signInWithProvider(page, display, `${tag}-stranger`);
      await expect(page.getByRole('main').getByRole('alert')).toContainText('Sign-in was refused');
      expect((await api('get', `/member?email=stranger-${tag}@example.org`)).body).toEqual([]);
    } finally {
      await request.delete(`/api/v1/webhook/${webhook.body.id}`, { headers: { authorization: `Bearer ${E2E.apiKey}` } });
      await hook.close();
    }
  } finally {
    await provider.close();
  }
});

test('an admin configures an identity provider in the UI, with field errors and a write-only secret', async ({ page }) => {
  await staffSignIn(page);
  await navigate(page, 'Identity providers');
  await page.getByRole('button', { name: 'New identity provider' }).first().click();
  const form = page.getByRole('form', { name: 'Create identity provider' });
  const name = unique('Clinic login');
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Issuer').fill('not a url');
  await form.getByLabel('Client ID').fill('carebase');
  await form.getByLabel('Client secret').fill('very-secret');
  await form.getByLabel('Claim mapping (JSON)').fill('{"email": ');
  await expect(form.getByText(/not (valid|complete) JSON/)).toBeVisible();
  await form.getByLabel('Claim mapping (JSON)').fill('{"email": "email", "name": "given_name"}');
  await form.getByRole('button', { name: 'Create identity provider' }).click();
  await expect(form.getByText(/Must be the http\(s\) issuer URL/)).toBeVisible();
  // The server will call the issuer: the metadata service is refused where the field is.
  await form.getByLabel('Issuer').fill('http://169.254.169.254/latest');
  await form.getByRole('button', { name: 'Create identity provider' }).click();
  await expect(form.getByText(/Refused to call 169\.254\.169\.254/)).toBeVisible();
  await form.getByLabel('Issuer').fill('http://127.0.0.1:9/realms/clinic');
  await form.getByRole('button', { name: 'Create identity provider' }).click();
  const card = page.getByRole('region', { name });
  await expect(card).toContainText('http://127.0.0.1:9/realms/clinic');
  await expect(card).toContainText(/\/api\/auth\/callback\/idp-\d+/);
  await expect(card).toContainText('name from claim given_name');
  await expect(page.getByText('very-secret')).toHaveCount(0);
  await snap(page, 'identity-providers');
});
