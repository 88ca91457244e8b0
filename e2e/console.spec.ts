import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { navigate, signIn, snap, unique } from './helpers';

const auth = { authorization: `Bearer ${E2E.apiKey}` };

test('an admin invites a coordinator, who sets a password and signs in; deactivating them ends their session at once', async ({ page, browser }) => {
  const email = `${unique('coord')}@example.org`;
  await signIn(page);
  await navigate(page, 'Team');
  const invite = page.getByRole('form', { name: 'Invite someone' });
  await invite.getByLabel('Email').fill('not an address');
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  await expect(invite.getByText('Enter an email address, like name@example.org')).toBeVisible();
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Role').selectOption('coordinator');
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation for ${email} created` })).toBeVisible();
  const link = (await page.getByLabel(`Invitation link for ${email}`).textContent())!;
  expect(link).toMatch(/\/invite\/cb_inv_/);
  await expect(page.getByRole('table', { name: 'Open invitations' })).toContainText(email);
  await snap(page, 'team-invited');

  // The invitee opens the link in their own browser, chooses a password, and is in.
  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('Join Riverside Orthopaedic Care');
  const form = invitee.getByRole('form', { name: 'Accept the invitation' });
  await form.getByLabel('Your name').fill('Casey Coordinator');
  await form.getByLabel('Choose a password').fill('a-long-password');
  await form.getByLabel('Repeat the password').fill('a-different-one');
  await form.getByRole('button', { name: 'Create my account' }).click();
  await expect(form.getByText('The two passwords differ')).toBeVisible();
  await form.getByLabel('Choose a password').fill('a-long-password');
  await form.getByLabel('Repeat the password').fill('a-long-password');
  await form.getByRole('button', { name: 'Create my account' }).click();
  await expect(invitee.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(invitee.getByText(/^Coordinator · times in/)).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Integrations & keys' })).toHaveCount(0);
  // The link is used up.
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText('This invitation cannot be used');

  // The admin sees them on the team, and deactivates them: their next page is the sign-in page.
  await page.reload();
  const row = page.getByRole('table', { name: 'Staff of the project' }).getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Coordinator');
  await expect(row).toContainText('Active');
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'their sessions have ended' })).toBeVisible();
  await expect(row).toContainText('Deactivated');
  await invitee.goto('/members');
  await expect(invitee).toHaveURL(/\/login/);
  // And cannot sign in again while deactivated.
  await invitee.getByLabel('Email').fill(email);
  await invitee.getByLabel('Password').fill('a-long-password');
  await invitee.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(invitee.getByRole('alert').filter({ hasText: 'Wrong email or password' })).toBeVisible();
});

test('the audit trail shows a change made through the API and one made in the console, with who and what', async ({ page, request }) => {
  const tag = unique('audit');
  const member = await (await request.post('/api/v1/member', { headers: auth, data: { name: `Pat ${tag}` } })).json();
  const patched = await request.patch(`/api/v1/member/${member.id}`, { headers: auth, data: { name: `Patricia ${tag}` } });
  expect(patched.status()).toBe(200);
  const requestId = patched.headers()['x-request-id']!;

  await signIn(page);
  await page.goto(`/members/${member.id}`);
  const details = page.getByRole('form', { name: 'Save changes' });
  await expect(details.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await details.getByLabel('Name').fill(`Patricia Jones ${tag}`);
  await expect(details.getByText('Unsaved changes')).toBeVisible();
  // Leaving with unsaved changes asks first; staying keeps them.
  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Records' }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${member.id}$`));
  await expect(details.getByLabel('Name')).toHaveValue(`Patricia Jones ${tag}`);
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Member saved' })).toBeVisible();

  // The member's own history, newest first.
  const history = page.getByRole('list', { name: 'History entries' });
  await expect(history.getByRole('listitem')).toHaveCount(3);
  await expect(history.getByRole('listitem').nth(0)).toContainText('Changed by Alex Morgan (staff)');
  await expect(history.getByRole('listitem').nth(1)).toContainText('Changed by Default integration (integration, key');
  await expect(history.getByRole('listitem').nth(2)).toContainText('Created by Default integration');
  await history.getByRole('listitem').nth(0).getByText('1 field').click();
  await expect(history.getByRole('listitem').nth(0)).toContainText(`Patricia ${tag}`);
  await expect(history.getByRole('listitem').nth(0)).toContainText(`Patricia Jones ${tag}`);

  // The Audit page, filtered to this member.
  await navigate(page, 'Audit trail');
  const filters = page.getByRole('search', { name: 'Filter the audit trail' });
  await filters.getByLabel('What changed').selectOption('member');
  await filters.getByLabel('Its id').fill(String(member.id));
  const events = page.getByRole('list', { name: 'Audit events' });
  await expect(events.getByRole('listitem')).toHaveCount(3);
  await expect(events.getByRole('listitem').nth(0)).toContainText(`Member ${member.id}: name`);
  await expect(events.getByRole('listitem').nth(0)).toContainText('Alex Morgan (staff)');
  const fromApi = events.getByRole('listitem').nth(1);
  await expect(fromApi).toContainText('Default integration (integration');
  await fromApi.getByText('Details').click();
  await expect(fromApi).toContainText(`request ${requestId}`);
  await expect(fromApi).toContainText(`Pat ${tag}`);
  await filters.getByLabel('Changed by').selectOption('system');
  await expect(page.getByText('No changes match these filters')).toBeVisible();
  await snap(page, 'audit-filtered');

  // The API gives integrations the same trail.
  const trail = await (await request.get(`/api/v1/audit-event?resource=member&resourceId=${member.id}`, { headers: auth })).json();
  expect(trail.map((e: { actor: { type: string } }) => e.actor.type)).toEqual(['integration', 'integration', 'user']);
});

test('bulk recovery resends the failed deliveries of a webhook whose receiver came back, and enables it again', async ({ page, request }) => {
  let gone = true;
  const hits: { id: string; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ id: String(req.headers['webhook-id']), body });
      // While gone it answers slowly, so both calls are under way before the first 410 disables the webhook.
      const answer = () => res.writeHead(gone ? 410 : 200, { 'content-type': 'application/json' }).end(gone ? '{"error":"gone"}' : '{"ok":true}');
      if (gone) setTimeout(answer, 500);
      else answer();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const tag = unique('recover');
  try {
    const webhook = await (await request.post('/api/v1/webhook', { headers: auth, data: { display: `Ward system ${tag}`, url, triggers: [{ event: 'member_create' }] } })).json();
    // The receiver is gone: the first call answers 410, the webhook is disabled, both deliveries fail.
    await Promise.all(['One', 'Two'].map((name) => request.post('/api/v1/member', { headers: auth, data: { name: `${name} ${tag}` } })));
    await expect.poll(async () => (await (await request.get(`/api/v1/webhook/${webhook.id}`, { headers: auth })).json()).enabled, { timeout: 10_000 }).toBe(false);
    const failed = await (await request.get(`/api/v1/webhook/${webhook.id}/delivery?status=failed`, { headers: auth })).json();
    expect(failed).toHaveLength(2);

    await signIn(page);
    await navigate(page, 'Webhooks');
    await expect(page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: `Ward system ${tag}` })).toContainText('Disabled');
    await page.getByRole('link', { name: `Ward system ${tag}` }).click();
    const reenable = page.getByRole('form', { name: 'Enable the webhook' });
    await expect(page.getByRole('alert').filter({ hasText: 'Disabled: the target answered 410 Gone' })).toBeVisible();
    await snap(page, 'webhook-disabled');

    // It is back; the admin enables it and resends what failed since yesterday.
    gone = false;
    const before = hits.length;
    await expect(reenable.getByLabel('Also resend failed deliveries since')).toBeChecked();
    await reenable.getByRole('button', { name: 'Enable webhook' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Webhook enabled; 2 failed deliveries queued again' })).toBeVisible();
    await expect.poll(() => hits.length, { timeout: 10_000 }).toBe(before + 2);
    expect(hits.slice(before).map((h) => h.id).sort()).toEqual(failed.map((d: { id: number }) => String(d.id)).sort());
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect(log.getByRole('row').filter({ hasText: 'delivered' })).toHaveCount(2);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Ward system ${tag}`);
    await expect(page.getByText('Healthy')).toBeVisible();
    await snap(page, 'webhook-recovered');
  } finally {
    await new Promise<void>((r) => (receiver.closeAllConnections(), receiver.close(() => r())));
  }
});

test('templates: saving confirms, old versions open read only, two versions compare side by side', async ({ page, request }) => {
  const tag = unique('tpl');
  const code = await (await request.post('/api/v1/observation-code', { headers: auth, data: { slug: `op-${tag}`, display: `Operation ${tag}`, type: 'date' } })).json();
  const definition = await (
    await request.post('/api/v1/careplan-definition', {
      headers: auth,
      data: { slug: tag, title: `Hip ${tag}`, inputs: [{ key: 'op', observationCodeId: code.id }], actions: [{ key: 'call', type: 'call', display: 'Phone call', inputKey: 'op', start: { offset: -7, offsetUnit: 'd' } }] },
    })
  ).json();
  await signIn(page);
  await page.goto(`/templates/${definition.id}`);
  await page.getByLabel('Action 1 display').fill('Pre-op phone call');
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version 2' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();

  await page.getByRole('list', { name: 'Version history' }).getByRole('link', { name: 'Version 1' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hip ${tag}, version 1`);
  await expect(page.getByLabel('Action 1 display')).toHaveValue('Phone call');
  await expect(page.getByLabel('Action 1 display')).toBeDisabled();
  await page.getByRole('link', { name: 'Compare with the latest' }).click();
  const rows = page.getByRole('list', { name: 'Differences' });
  await expect(rows.getByRole('listitem', { name: 'Pre-op phone call: changed' })).toContainText('display');
  await expect(rows.getByRole('listitem', { name: 'Pre-op phone call: changed' })).toContainText('Phone call');
  // The reference date is the same in both versions (each version's own row ids do not count).
  await expect(rows.getByRole('listitem', { name: 'op: unchanged' })).toBeVisible();
  await snap(page, 'template-compare');

  // A new version started from version 1 brings its content back as version 3.
  await page.goto(`/templates/${definition.id}/versions/1`);
  await page.getByRole('button', { name: 'Start a new version from this one' }).click();
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/${definition.id}$`));
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version 3' })).toBeVisible();
  await expect(page.getByLabel('Action 1 display')).toHaveValue('Phone call');
});
