import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { navigate, pick, signIn, snap, unique } from './helpers';

test('an admin builds a template, enrols a member, sets the reference date and sees the activities on the timeline', async ({ page, request }) => {
  const tag = unique('knee');
  const auth = { authorization: `Bearer ${E2E.apiKey}` };
  expect((await request.post('/api/v1/member', { data: { name: `Patient ${tag}` }, headers: auth })).status()).toBe(201);
  await signIn(page);

  // A date observation code, through the UI.
  await navigate(page, 'Observation codes');
  await page.getByRole('button', { name: 'New observation code' }).first().click();
  const codeForm = page.getByRole('form', { name: 'Create observation code' });
  await codeForm.getByLabel('Display name').fill(`Surgery ${tag}`);
  await codeForm.getByLabel('Slug').fill(`surgery-${tag}`);
  await codeForm.getByRole('button', { name: 'Create observation code' }).click();
  await expect(page.getByRole('table', { name: 'Observation codes' })).toContainText(`Surgery ${tag}`);

  // The template editor: one input, one action from the start, one anchored on the input.
  await navigate(page, 'Templates');
  await page.getByRole('link', { name: 'New template' }).first().click();
  await page.getByLabel('Title').fill(`Knee ${tag}`);
  await page.getByLabel('Slug').fill(`knee-${tag}`);
  await page.getByRole('button', { name: 'Add input' }).click();
  await page.getByLabel('Input 1 key').fill('surgery');
  await pick(page, 'Input 1 date code', `Surgery ${tag}`);
  await page.getByRole('button', { name: 'Add action' }).click();
  await page.getByLabel('Action 1 key').fill('intake');
  await page.getByLabel('Action 1 type').fill('call');
  await page.getByLabel('Action 1 display').fill('Intake call');
  await page.getByLabel('Action 1 start amount').fill('2');
  await page.getByRole('button', { name: 'Add action' }).click();
  await page.getByLabel('Action 2 key').fill('checkup');
  await page.getByLabel('Action 2 type').fill('visit');
  await page.getByLabel('Action 2 display').fill('Check-up');
  await page.getByLabel('Action 2 anchor').selectOption('surgery');
  await page.getByLabel('Action 2 start amount').fill('1');
  await page.getByLabel('Action 2 start unit').selectOption('wk');
  await page.getByLabel('Action 2 ends').check();
  await page.getByLabel('Action 2 end amount').fill('0');
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByText(/Must be at least 1/).first()).toBeVisible();
  await page.getByLabel('Action 2 end amount').fill('3');
  // A reminder with its own title and message.
  await page.getByRole('listitem', { name: 'Action 2' }).getByRole('button', { name: 'Add reminder' }).click();
  await page.getByLabel('Action 2 reminder 1 title').fill('Your check-up is this week');
  await page.getByLabel('Action 2 reminder 1 message').fill('Bring your walking stick.');
  await page.getByLabel('Sample surgery').fill('2027-01-15');
  await expect(page.getByRole('figure', { name: 'Care plan timeline' }).getByRole('listitem', { name: /Check-up, preview/ })).toBeVisible();
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Knee ${tag}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Version history' })).toContainText('Version 1');
  await snap(page, 'definition-editor');
  const saved = await (await request.get(`/api/v1/careplan-definition/knee-${tag}`, { headers: auth })).json();
  expect(saved.actions[1].reminders).toEqual([{ offset: 0, offsetUnit: 'h', title: 'Your check-up is this week', body: 'Bring your walking stick.' }]);

  // Enrol the member.
  await navigate(page, 'Care plans');
  await page.getByRole('button', { name: 'Enrol a member' }).first().click();
  const enrol = page.getByRole('form', { name: 'Enrol a member' });
  await pick(enrol, 'Template', `Knee ${tag}`);
  await pick(enrol, 'Member', `Patient ${tag}`);
  await enrol.getByRole('button', { name: 'Enrol' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Knee ${tag}` })).toBeVisible();

  const timeline = page.getByRole('figure', { name: 'Care plan timeline' });
  await expect(timeline.getByRole('listitem', { name: /^Intake call, proposed/ })).toBeVisible();
  await expect(timeline.getByRole('listitem', { name: /^Check-up/ })).toHaveCount(0);

  // The reference date creates the anchored activity; changing it moves it.
  await page.getByRole('list', { name: 'Reference dates' }).getByLabel(`Surgery ${tag}`, { exact: true }).fill('2027-01-15');
  await page.getByRole('button', { name: `Set date: Surgery ${tag}`, exact: true }).click();
  await expect(timeline.getByRole('listitem', { name: /^Check-up, proposed, from 22 Jan 2027/ })).toBeVisible();
  await snap(page, 'careplan-timeline');
  await page.getByRole('list', { name: 'Reference dates' }).getByLabel(`Surgery ${tag}`, { exact: true }).fill('2027-02-01');
  await page.getByRole('button', { name: `Change date: Surgery ${tag}`, exact: true }).click();
  await expect(timeline.getByRole('listitem', { name: /^Check-up, proposed, from 8 Feb 2027/ })).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: `Clear date: Surgery ${tag}`, exact: true }).click();
  await expect(timeline.getByRole('listitem', { name: /^Check-up, cancelled/ })).toBeVisible();

  // The member's page lists the care plan.
  await page.getByRole('link', { name: `Patient ${tag}` }).click();
  await expect(page.getByRole('table', { name: 'Care plans of this member' })).toContainText(`Knee ${tag}`);
});
