import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { signIn, snap, unique } from './helpers';
import { signInWithProvider, startIdentityProvider } from './oidc';

/**
 * Every page of the console and of /me, at 1,440 and 390 px wide (issue 13): none scrolls sideways,
 * axe-core finds nothing serious or critical, and a screenshot of each is saved for people to look at.
 */
const auth = { authorization: `Bearer ${E2E.apiKey}` };
const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function post(request: APIRequestContext, path: string, data?: unknown) {
  const res = await request.post(`/api/v1${path}`, { headers: auth, data });
  if (res.status() >= 300) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** One of everything the pages show, made through the API. */
async function makeData(request: APIRequestContext) {
  const tag = unique('p');
  const member = await post(request, '/member', { name: `Margaret Okafor ${tag}`, email: `${tag}@example.org`, externalId: `crm-${tag}` });
  const type = `profile-${tag}`;
  await post(request, '/record-type', { type, permissions: { user: { read: true } } });
  await post(request, `/record/${type}`, { memberId: member.id, fields: { city: 'Leeds', plan: 'premium', language: 'en' } });
  const code = await post(request, '/observation-code', { slug: `surgery-${tag}`, display: `Surgery date ${tag}`, type: 'date' });
  const article = await post(request, '/article', { slug: `exercises-${tag}`, title: 'Exercises before your operation', body: '## Why\n\nStrong muscles help you walk sooner.', status: 'published' });
  const questionnaire = await post(request, '/questionnaire', {
    slug: `intake-${tag}`,
    title: 'Before your operation',
    items: [
      { linkId: 'when', type: 'date', text: 'When is your operation?', required: true, observationCodeId: code.id },
      { linkId: 'pain', type: 'integer', text: 'How much pain today (0-10)?', min: 0, max: 10 },
    ],
  });
  const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, start: '08:00', end: '18:00' }));
  const schedule = await post(request, '/schedule', { display: `Knee clinic ${tag}`, availability: weekdays, timeZone: 'Europe/London' });
  const definition = await post(request, '/careplan-definition', {
    slug: `knee-${tag}`,
    title: `Knee replacement ${tag}`,
    inputs: [{ key: 'surgery', observationCodeId: code.id }],
    actions: [
      { key: 'intake', kind: 'questionnaire', questionnaireId: questionnaire.id, type: 'form', display: 'Tell us about your operation', start: { offset: -5, offsetUnit: 'min' } },
      { key: 'read', kind: 'message', articleId: article.id, type: 'reading', display: 'Read: exercises', start: { offset: -5, offsetUnit: 'min' } },
      { key: 'book', kind: 'appointment', scheduleId: schedule.id, type: 'visit', display: 'Book your follow-up', start: { offset: -5, offsetUnit: 'min' } },
      { key: 'call', type: 'call', display: 'Pre-op phone call', inputKey: 'surgery', start: { offset: -7, offsetUnit: 'd' }, end: { offset: 4, offsetUnit: 'd' }, reminders: [{ offset: 1, offsetUnit: 'd' }] },
      { key: 'review', type: 'visit', display: 'Six-week review', inputKey: 'surgery', start: { offset: 6, offsetUnit: 'wk' } },
    ],
  });
  await request.patch(`/api/v1/careplan-definition/${definition.id}`, { headers: auth, data: { title: `Knee replacement ${tag} (v2)`, newVersion: true } });
  const plan = await post(request, '/careplan', { definitionId: definition.id, subjectId: member.id });
  const surgery = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  await post(request, '/careplan-parameter', { careplanId: plan.id, inputId: plan.parameters[0].inputId, observation: { value: surgery, observedAt: new Date().toISOString() } });
  const response = await post(request, '/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, answers: [{ linkId: 'when', value: surgery }, { linkId: 'pain', value: 3 }] });
  // Version 2 adds a question: version 1 has a response, so the change makes a new version.
  await request.patch(`/api/v1/questionnaire/${questionnaire.id}`, { headers: auth, data: { items: [...questionnaire.items, { linkId: 'stairs', type: 'boolean', text: 'Do you have stairs at home?' }] } });
  const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const slots = await (await request.get(`/api/v1/schedule/${schedule.id}/slot?from=${day}&to=${day}`, { headers: auth })).json();
  const appointment = await post(request, '/appointment', { scheduleId: schedule.id, subjectId: member.id, start: slots[2].start, title: 'Follow-up consultation' });
  const integration = await post(request, '/integration', { display: `CRM ${tag}`, slug: `crm-${tag}` });
  await post(request, `/integration/${integration.id}/key`, { name: 'Nightly sync' });
  const webhook = await post(request, '/webhook', { display: `CRM sync ${tag}`, url: 'http://127.0.0.1:9/unreachable', triggers: [{ event: 'member_update' }] });
  await request.patch(`/api/v1/member/${member.id}`, { headers: auth, data: { timeZone: 'Europe/London' } });
  const [delivery] = await (await request.get(`/api/v1/webhook/${webhook.id}/delivery`, { headers: auth })).json();
  const [event] = await (await request.get('/api/v1/event?name=member_update', { headers: auth })).json();
  return { tag, member, type, definition, plan, questionnaire, article, schedule, response, appointment, integration, webhook, delivery, event };
}

async function waitForContent(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** Nothing wider than the window, and no serious or critical accessibility finding. */
async function check(page: Page, name: string) {
  await waitForContent(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect.soft(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  // Legacy mode runs axe in the page itself. The default opens a blank page for every analysis to
  // combine the frames' results, which took half of each page's time here (1.2-1.6 s against 0.6-0.7 s
  // for a console page, on a slow machine); the pages have no frames, so the findings are the same.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).setLegacyMode(true).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n    ')}`);
  expect.soft(serious, `${name}:\n${serious.join("\n")}`).toEqual([]);
  await snap(page, name);
}

for (const size of WIDTHS) test(`every console page fits a ${size.name} screen ${size.width} px wide, and passes axe`, async ({ page, request }) => {
  test.setTimeout(300_000);
  const d = await makeData(request);
  await signIn(page);
  const pages: [string, string][] = [
    ['dashboard', '/'],
    ['members', '/members'],
    ['member', `/members/${d.member.id}`],
    ['member-respond', `/members/${d.member.id}/respond?questionnaireId=${d.questionnaire.id}`],
    ['records', '/records'],
    ['record-types', '/record-types'],
    ['record-type', `/record-types/${d.type}`],
    ['careplans', '/careplans'],
    ['careplan', `/careplans/${d.plan.id}`],
    ['templates', '/templates'],
    ['template-new', '/templates/new'],
    ['template', `/templates/${d.definition.id}`],
    ['template-version', `/templates/${d.definition.id}/versions/1`],
    ['template-compare', `/templates/${d.definition.id}/compare?from=1&to=2`],
    ['questionnaires', '/questionnaires'],
    ['questionnaire-new', '/questionnaires/new'],
    ['questionnaire', `/questionnaires/${d.questionnaire.id}`],
    ['questionnaire-version', `/questionnaires/${d.questionnaire.id}/versions/1`],
    ['questionnaire-compare', `/questionnaires/${d.questionnaire.id}/compare?from=1&to=2`],
    ['response', `/responses/${d.response.id}`],
    ['articles', '/articles'],
    ['article-new', '/articles/new'],
    ['article', `/articles/${d.article.id}`],
    ['schedules', '/schedules'],
    ['schedule-new', '/schedules/new'],
    ['schedule', `/schedules/${d.schedule.id}`],
    ['observation-codes', '/observation-codes'],
    ['integrations', '/integrations'],
    ['integration', `/integrations/${d.integration.id}`],
    ['webhooks', '/webhooks'],
    ['webhook-new', '/webhooks/new'],
    ['webhook', `/webhooks/${d.webhook.id}`],
    ['delivery', `/webhooks/${d.webhook.id}/deliveries/${d.delivery.id}`],
    ['events', '/events'],
    ['event', `/events/${d.event.id}`],
    ['identity-providers', '/identity-providers'],
    ['api-reference', '/api-reference'],
    ['team', '/team'],
    ['audit', '/audit'],
    ['not-found', '/no-such-page'],
    ['missing-careplan', '/careplans/2147483000'],
  ];
  await page.setViewportSize({ width: size.width, height: size.height });
  for (const [name, path] of pages) {
    const res = await page.goto(path);
    if (name === 'not-found' || name === 'missing-careplan') {
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not find that page');
      await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toBeVisible();
    } else expect.soft(res?.status(), path).toBe(200);
    await check(page, `page-${name}-${size.name}`);
  }
});

test('the sign-in, invitation and member pages fit a phone and a desktop, and pass axe', async ({ browser, page, request }) => {
  test.setTimeout(300_000);
  const d = await makeData(request);
  // An invitation link, made in the console.
  await signIn(page);
  await page.goto('/team');
  const invite = page.getByRole('form', { name: 'Invite someone' });
  await invite.getByLabel('Email').fill(`${d.tag}-new@example.org`);
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  const link = (await page.getByLabel(/^Invitation link for/).textContent())!;

  const idp = await startIdentityProvider(request, `Patient login ${d.tag}`, { [d.tag]: { email: d.member.email, name: d.member.name } });
  try {
    const member = await (await browser.newContext()).newPage();
    await signInWithProvider(member, `Patient login ${d.tag}`, d.tag);
    await expect(member).toHaveURL(/\/me$/);
    const [activity] = await (await request.get(`/api/v1/activity?careplanId=${d.plan.id}&kind=questionnaire`, { headers: auth })).json();
    const visitor = await (await browser.newContext()).newPage();
    for (const size of WIDTHS) {
      for (const p of [member, visitor]) await p.setViewportSize({ width: size.width, height: size.height });
      for (const [p, name, path] of [
        [visitor, 'login', '/login'],
        [visitor, 'invite', new URL(link).pathname],
        [visitor, 'invite-invalid', '/invite/cb_inv_thisisnotavalidinvitationtoken'],
        [visitor, 'reset-invalid', '/reset/cb_inv_thisisnotavalidresettoken00'],
        [member, 'me', '/me'],
        [member, 'me-activity', `/me/activities/${activity.id}`],
        [member, 'me-appointment', `/me/appointments/${d.appointment.id}`],
      ] as const) {
        expect((await p.goto(path))?.status(), path).toBe(200);
        await check(p, `page-${name}-${size.name}`);
      }
    }
  } finally {
    await idp.close();
  }
});
