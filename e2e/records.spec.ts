import { expect, test } from '@playwright/test';
import { navigate, pick, signIn, snap, unique } from './helpers';

test('an admin creates a record type with permissions, a member and a record, then filters records', async ({ page }) => {
  const type = unique('diary');
  const name = unique('Member');
  await signIn(page);

  // Record type with a permission matrix
  await navigate(page, 'Record types');
  await page.getByRole('button', { name: 'New record type' }).first().click();
  const typeForm = page.getByRole('form', { name: 'New record type' });
  await typeForm.getByLabel('Type').fill('9 bad');
  await typeForm.getByRole('button', { name: 'Create record type' }).click();
  await expect(typeForm.getByText(/A type starts with a letter/)).toBeVisible();
  await typeForm.getByLabel('Type').fill(type);
  await typeForm.getByLabel('Roles that may read').fill('user');
  await typeForm.getByRole('button', { name: 'Create record type' }).click();
  await expect(page.getByRole('heading', { level: 1, name: type })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'user may read' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'user may write' }).check();
  await page.getByLabel('Add a role').fill('caregiver');
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByRole('checkbox', { name: 'caregiver may read' })).toBeChecked();
  // A short role name: the server answers it first (jsonb key order), the form added it last.
  await page.getByLabel('Add a role').fill('gp');
  await page.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Permissions saved' })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  await snap(page, 'record-type-matrix');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'user may write' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'caregiver may write' })).not.toBeChecked();

  // Member
  await navigate(page, 'Members');
  await page.getByRole('button', { name: 'New member' }).first().click();
  const memberForm = page.getByRole('form', { name: 'Create member' });
  await memberForm.getByLabel('Name').fill(name);
  await memberForm.getByLabel('Email').fill('not-an-email');
  await memberForm.getByRole('button', { name: 'Create member' }).click();
  await expect(memberForm.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await memberForm.getByLabel('Email').fill(`${name.toLowerCase()}@example.org`);
  await memberForm.getByRole('button', { name: 'Create member' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await page.getByRole('button', { name: 'Issue a member token' }).click();
  await expect(page.getByLabel('Member access token')).toHaveText(/^cb_mem_/);
  await snap(page, 'member-detail');

  // Two records
  await navigate(page, 'Records');
  for (const mood of ['good', 'tired']) {
    await page.getByRole('button', { name: 'New record' }).first().click();
    const form = page.getByRole('form', { name: 'New record' });
    await form.getByLabel('Type').fill(type);
    await pick(form, 'Member', name);
    await form.getByLabel('Fields (JSON object)').fill(`{"mood": "${mood}", "day": 1}`);
    await form.getByRole('button', { name: 'Create record' }).click();
    await expect(form).toHaveCount(0);
  }

  // Filters: type, then fields JSON with inline validation
  await page.getByRole('region', { name: 'Filters' }).getByLabel('Type').fill(type);
  const table = page.getByRole('table', { name: 'Records' });
  await expect(table.getByRole('row')).toHaveCount(3);
  const fieldsFilter = page.getByLabel('Fields filter (JSON)');
  await fieldsFilter.fill('{"mood": ');
  await expect(page.getByRole('region', { name: 'Filters' }).getByRole('alert')).toContainText(/not (valid|complete) JSON/);
  await fieldsFilter.fill('{"mood": "good"}');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('"mood":"good"');
  await snap(page, 'records-filtered');
  await fieldsFilter.fill('{"mood": "angry"}');
  await expect(page.getByText('No records match these filters')).toBeVisible();
  await fieldsFilter.fill('');
  await expect(table.getByRole('row')).toHaveCount(3);

  // Edit and delete a record
  const first = table.getByRole('row').nth(1);
  const id = (await first.getByRole('cell').first().textContent())!.trim();
  await page.getByRole('button', { name: `Edit record ${id}` }).click();
  await page.getByLabel(`Fields of record ${id}`).fill('{"mood": "great"}');
  await page.getByRole('button', { name: 'Save record' }).click();
  await expect(table).toContainText('{"mood":"great"}');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: `Delete record ${id}` }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
});

test('an admin creates an integration and sees its API key once', async ({ page }) => {
  await signIn(page);
  await navigate(page, 'Integrations & keys');
  await page.getByRole('button', { name: 'New integration' }).first().click();
  const slug = unique('crm');
  await page.getByLabel('Name').fill('CRM sync');
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Endpoint URL').fill('ftp://nope');
  await page.getByRole('button', { name: 'Create integration' }).click();
  await expect(page.getByText('Must be an http(s) URL')).toBeVisible();
  await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks');
  await page.getByRole('button', { name: 'Create integration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'CRM sync' })).toBeVisible();
  await page.getByLabel('Key name').fill('Nightly sync');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const key = await page.getByLabel('New API key “Nightly sync”').textContent();
  expect(key).toMatch(/^cb_key_/);
  await expect(page.getByRole('status').filter({ hasText: 'Key “Nightly sync” created' })).toBeVisible();
  await snap(page, 'integration-key');
  const keys = page.getByRole('table', { name: 'API keys' });
  const row = keys.getByRole('row').filter({ hasText: 'Nightly sync' });
  await expect(row).toContainText('never');
  await expect(row).toContainText('Alex Morgan');
  const res = await page.request.get('/api/v1/integration', { headers: { authorization: `Bearer ${key}` } });
  expect(res.status()).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  // Its use shows as "last used" (kept to within a minute).
  await page.reload();
  await expect(row).toContainText(/now|minutes? ago/);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Revoke key Nightly sync' }).click();
  await expect(page.getByRole('table', { name: 'API keys' }).getByText('Revoked')).toBeVisible();
  const after = await page.request.get('/api/v1/integration', { headers: { authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});

test('the API reference lists every area and links the OpenAPI document', async ({ page }) => {
  await signIn(page);
  await navigate(page, 'API reference');
  for (const section of ['Members', 'Records', 'Record types', 'Integrations']) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
  }
  await page.getByText('/record/{type}/{id}').first().click();
  await snap(page, 'api-reference');
  const doc = await page.request.get('/api/v1/openapi.json');
  expect((await doc.json()).openapi).toBe('3.1.0');
});
