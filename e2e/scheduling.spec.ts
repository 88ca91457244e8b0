import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { pick, signIn, snap, unique } from './helpers';
import { signInWithProvider, startIdentityProvider } from './oidc';

const auth = { authorization: `Bearer ${E2E.apiKey}` };

test('a coordinator creates a schedule and books a member from the calendar; the member moves it on /me; the coordinator runs the visit', async ({ page, request }) => {
  const tag = unique('sched');
  const email = `${tag}@example.org`;
  // The member reads times in their own zone, the clinic's here.
  const member = await (await request.post('/api/v1/member', { headers: auth, data: { name: `Patient ${tag}`, email, timeZone: 'Europe/Amsterdam' } })).json();
  await signIn(page, E2E.coordinatorEmail, E2E.coordinatorPassword);
  await page.goto('/schedules/new');
  await page.getByLabel('Name').fill(`Clinic ${tag}`);
  await page.getByLabel('Time zone').selectOption('Europe/Amsterdam');
  // Weekdays 09:00-17:00 by default; Saturday gets a morning, a window that ends before it starts is refused.
  const saturday = page.getByRole('listitem', { name: 'Saturday' });
  await saturday.getByRole('button', { name: 'Add a window on Saturday' }).click();
  await saturday.getByLabel('Saturday window 1 to').fill('08:00');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(saturday.getByText('Must be after start')).toBeVisible();
  await saturday.getByLabel('Saturday window 1 to').fill('12:00');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page).toHaveURL(/\/schedules\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Clinic ${tag}`);
  await expect(page.getByText('Times in Europe/Amsterdam')).toBeVisible();

  // Last week's days are past: each says so, rather than "Nothing free" as a full day would.
  const week = page.getByRole('list', { name: 'Week' });
  await page.getByRole('button', { name: 'Previous week' }).click();
  await expect(week.getByRole('listitem').filter({ hasText: 'In the past' })).toHaveCount(7);
  await expect(week.getByText('Nothing free')).toHaveCount(0);
  await page.getByRole('button', { name: 'Today' }).click();

  // Next week: every weekday has free slots; book the first of Monday.
  await page.getByRole('button', { name: 'Next week' }).click();
  const monday = week.getByRole('listitem').first();
  await monday.getByRole('button', { name: '09:00 free' }).click();
  const panel = page.getByRole('form', { name: 'Book this slot' });
  await pick(panel, 'Member', `Patient ${tag}`);
  await panel.getByLabel('Title').fill('First consultation');
  await panel.getByRole('button', { name: 'Book' }).click();
  await expect(monday.getByRole('button', { name: `09:00 Patient ${tag}` })).toBeVisible();
  await expect(monday.getByRole('button', { name: '09:00 free' })).toHaveCount(0);
  await snap(page, 'schedule-calendar');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'schedule-calendar-phone');
  await page.setViewportSize({ width: 1360, height: 900 });

  const scheduleUrl = page.url();
  await expect(page.getByRole('region', { name: 'First consultation' })).toBeVisible();

  // The member signs in and moves it to another time.
  const display = `Sign in with ${tag}`;
  const idp = await startIdentityProvider(request, display, { [tag]: { email, name: `Patient ${tag}`, email_verified: true } });
  let movedTo: string;
  try {
    await page.context().clearCookies();
    await signInWithProvider(page, display, tag);
    await expect(page).toHaveURL(/\/me$/);
    const upcoming = page.getByRole('list', { name: 'Your appointments' });
    await expect(upcoming).toContainText('at 09:00');
    // "Monday, 30 November 2026 at 09:00": the same day, later.
    const [, weekday, date] = /(\w+),? (\d+ \w+) \d{4} at 09:00/.exec((await upcoming.textContent()) ?? '') ?? [];
    await upcoming.getByRole('link', { name: 'Choose another time' }).click();
    const times = page.getByRole('group', { name: `Free times of Clinic ${tag}` });
    await expect(times.getByText('Times in your time zone (Europe/Amsterdam)')).toBeVisible();
    await times.getByRole('button', { name: `${weekday} ${date} at 10:30` }).click();
    await expect(page).toHaveURL(/\/me\?booked=1$/);
    await expect(upcoming).toContainText('at 10:30');
    movedTo = (await upcoming.getByRole('listitem').first().textContent()) ?? '';
  } finally {
    await idp.close();
  }
  expect(movedTo).toContain('10:30');

  // Back as the coordinator: the calendar shows the new time; start the visit, finish it with a note.
  await page.context().clearCookies();
  await signIn(page, E2E.coordinatorEmail, E2E.coordinatorPassword);
  await page.goto(scheduleUrl);
  await page.getByRole('button', { name: 'Next week' }).click();
  const card = week.getByRole('button', { name: `10:30 Patient ${tag}` });
  await card.click();
  await expect(page.getByRole('region', { name: 'First consultation' })).toBeVisible();
  await page.getByRole('button', { name: 'Start visit' }).click();
  await page.getByLabel('Visit note').fill('Knee bends to 110 degrees.');
  await page.getByRole('button', { name: 'Finish visit' }).click();
  await expect(card).toHaveCount(0);
  const appointments = await (await request.get(`/api/v1/appointment?subjectId=${member.id}`, { headers: auth })).json();
  expect(appointments.map((a: { status: string; title: string }) => [a.status, a.title])).toEqual([['fulfilled', 'First consultation']]);

  // The member's page shows it.
  await page.goto(`/members/${member.id}`);
  await expect(page.getByRole('table', { name: 'Appointments of this member' })).toContainText('fulfilled');
  await expect(page.getByRole('table', { name: 'Visits of this member' })).toContainText('Knee bends to 110 degrees.');
});

test('a member books the consultation their care plan asks for on /me, moves it, and cancels it', async ({ page, request }) => {
  const tag = unique('book');
  const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, start: '08:00', end: '20:00' }));
  const schedule = await (await request.post('/api/v1/schedule', { headers: auth, data: { display: `Phone line ${tag}`, timeZone: 'UTC', slotMinutes: 60, availability: weekdays, minimumNoticeMinutes: 24 * 60 } })).json();
  const definition = await request.post('/api/v1/careplan-definition', {
    headers: auth,
    data: {
      slug: `consult-${tag}`,
      title: `Consult ${tag}`,
      actions: [{ key: 'book', kind: 'appointment', scheduleId: schedule.id, type: 'consultation', display: `Book your call ${tag}`, start: { offset: 0, offsetUnit: 's' } }],
    },
  });
  expect(definition.status()).toBe(201);
  const email = `${tag}@example.org`;
  const member = await (await request.post('/api/v1/member', { headers: auth, data: { name: `Member ${tag}`, email } })).json();
  await request.post('/api/v1/careplan', { headers: auth, data: { definitionId: (await definition.json()).id, subjectId: member.id } });

  const display = `Sign in with ${tag}`;
  const idp = await startIdentityProvider(request, display, { [tag]: { email, name: `Member ${tag}`, email_verified: true } });
  try {
    await signInWithProvider(page, display, tag);
    await expect(page).toHaveURL(/\/me$/);
    const tasks = page.getByRole('list', { name: 'Things to do now' });
    await expect(async () => {
      await page.reload();
      await expect(tasks.getByRole('link', { name: `Book “Book your call ${tag}”` })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await tasks.getByRole('link', { name: `Book “Book your call ${tag}”` }).click();
    const times = page.getByRole('group', { name: `Free times of Phone line ${tag}` });
    await expect(times.getByText('Times in your time zone (Europe/London)')).toBeVisible();
    const first = times.getByRole('button').first();
    const firstName = (await first.getAttribute('aria-label'))!;
    await first.click();
    await expect(page).toHaveURL(/\/me\?booked=1$/);
    const upcoming = page.getByRole('list', { name: 'Your appointments' });
    await expect(upcoming.getByRole('listitem')).toHaveCount(1);
    await expect(tasks).toHaveCount(0);
    await snap(page, 'member-booked');

    // Move it to the next free time.
    await upcoming.getByRole('link', { name: 'Choose another time' }).click();
    const again = page.getByRole('group', { name: `Free times of Phone line ${tag}` });
    await expect(again.getByRole('button', { name: firstName })).toHaveCount(0);
    await again.getByRole('button').first().click();
    await expect(page).toHaveURL(/\/me\?booked=1$/);
    const moved = await (await request.get(`/api/v1/appointment?subjectId=${member.id}`, { headers: auth })).json();
    expect(moved).toHaveLength(1);
    expect(moved[0].status).toBe('booked');

    // Cancelled: the care plan asks again.
    await upcoming.getByRole('button', { name: /^Cancel the appointment/ }).click();
    await expect(page.getByText('No appointments booked')).toBeVisible();
    await expect(tasks.getByRole('link', { name: `Book “Book your call ${tag}”` })).toBeVisible();
  } finally {
    await idp.close();
  }
});
