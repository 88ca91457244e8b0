import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { navigate, signIn, snap, unique } from './helpers';

test('a coordinator watches an activity go proposed -> scheduled -> expired, and its reminder reach the member', async ({ page, request }) => {
  const tag = unique('soon');
  const auth = { authorization: `Bearer ${E2E.apiKey}` };
  const member = await (await request.post('/api/v1/member', { data: { name: `Patient ${tag}` }, headers: auth })).json();
  const definition = await request.post('/api/v1/careplan-definition', {
    headers: auth,
    data: {
      slug: tag,
      title: `Quick check ${tag}`,
      actions: [
        { key: 'later', type: 'visit', display: 'Follow-up visit', start: { offset: 2, offsetUnit: 'min' } },
        { key: 'soon', type: 'visit', display: `Pre-op visit ${tag}`, start: { offset: 2, offsetUnit: 'd' } },
        {
          key: 'now',
          type: 'call',
          display: 'Check-in call',
          start: { offset: 12, offsetUnit: 's' },
          end: { offset: 10, offsetUnit: 's' },
          reminders: [{ offset: 3, offsetUnit: 's', body: 'We will call you now' }, { offset: 6, offsetUnit: 's' }],
        },
      ],
    },
  });
  expect(definition.status()).toBe(201);
  await signIn(page);
  const careplan = await (await request.post('/api/v1/careplan', { headers: auth, data: { definitionId: (await definition.json()).id, subjectId: member.id } })).json();

  // An activity that started an hour ago and runs until tomorrow: overdue once it is scheduled.
  const overdue = await request.post('/api/v1/activity', {
    headers: auth,
    data: { careplanId: careplan.id, type: 'form', display: `Intake form ${tag}`, activateAt: new Date(Date.now() - 3_600_000).toISOString(), endAt: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(overdue.status()).toBe(201);

  await page.goto(`/careplans/${careplan.id}`);
  const timeline = page.getByRole('figure', { name: 'Care plan timeline' });
  const activities = page.getByRole('table', { name: 'Activities' });
  const row = activities.getByRole('row', { name: /Check-in call/ });
  await expect(timeline.getByRole('listitem', { name: /^Check-in call, proposed, from .* 2 reminders, next/ })).toBeVisible();
  await expect(row.getByText('proposed', { exact: true })).toBeVisible();
  await expect(row.getByRole('cell').nth(4)).toHaveText('2');
  await snap(page, 'lifecycle-proposed');

  // The page refreshes by itself: no reload from here on.
  await expect(timeline.getByRole('listitem', { name: /^Check-in call, scheduled/ })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText('scheduled', { exact: true })).toBeVisible();
  await snap(page, 'lifecycle-scheduled');
  await expect(row.getByRole('cell').nth(4)).toHaveText('0', { timeout: 15_000 });
  await expect(timeline.getByRole('listitem', { name: /^Check-in call, expired/ })).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText('expired', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Complete Check-in call' })).toHaveCount(0);
  await snap(page, 'lifecycle-expired');

  // The other activity is still open: a coordinator completes it.
  await page.getByRole('button', { name: 'Complete Follow-up visit' }).click();
  await expect(activities.getByRole('row', { name: /Follow-up visit/ }).getByText('completed', { exact: true })).toBeVisible();

  // Both reminders reached the member.
  await page.getByRole('link', { name: `Patient ${tag}` }).click();
  const notifications = page.getByRole('table', { name: 'Notifications of this member' });
  await expect(notifications.getByRole('row', { name: /call: Check-in call/ })).toHaveCount(2);
  await expect(notifications).toContainText('We will call you now');
  await expect(notifications.getByText('sent', { exact: true })).toHaveCount(2);
  await snap(page, 'member-notifications');

  // The dashboard puts each activity where a coordinator looks for it.
  await navigate(page, 'Dashboard');
  await expect(page.getByRole('region', { name: 'Recently expired' })).toContainText('Check-in call');
  await expect(page.getByRole('region', { name: 'Due soon' })).toContainText(`Pre-op visit ${tag}`);
  await expect(page.getByRole('region', { name: 'Overdue' })).toContainText(`Intake form ${tag}`);
  await expect(page.getByRole('region', { name: 'Overdue' })).not.toContainText(`Pre-op visit ${tag}`);
  await expect(page.getByRole('region', { name: 'Due soon' })).not.toContainText(`Intake form ${tag}`);
  await snap(page, 'dashboard-activities');
});
