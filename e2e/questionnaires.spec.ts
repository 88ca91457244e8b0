import { expect, test, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { pick, signIn, snap, unique } from './helpers';
import { signInWithProvider, startIdentityProvider } from './oidc';

const auth = { authorization: `Bearer ${E2E.apiKey}` };

/** Markdown that tries every way of getting script into the page (CONTRACT 9: none may reach the DOM). */
const HOSTILE = [
  '# Safe heading',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '[click me](javascript:window.__pwned="link")',
  'Inline <img src="y" onerror="window.__pwned = \'inline\'"> and <a href="javascript:window.__pwned=1">raw link</a>.',
  'Plain **bold** text.',
].join('\n\n');

async function expectNoScript(page: Page, scope: string) {
  const found = await page.evaluate(
    (selector) => {
      const root = document.querySelector(selector);
      if (!root) return 'missing';
      const bad = [
        ...root.querySelectorAll('script'),
        ...root.querySelectorAll('[onerror], [onload], [onclick]'),
        ...[...root.querySelectorAll('a, img, iframe')].filter((el) => /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? '')),
      ];
      return bad.map((el) => el.outerHTML).join('\n') + ((window as unknown as { __pwned?: string }).__pwned ?? '');
    },
    scope,
  );
  expect(found).toBe('');
}

test('an admin builds a questionnaire with a condition and a mapped date; the member answers it on /me and schedules their own plan', async ({ page, request }) => {
  const tag = unique('q');
  const code = await (await request.post('/api/v1/observation-code', { headers: auth, data: { slug: `surgery-${tag}`, display: `Surgery date ${tag}`, type: 'date' } })).json();

  // The builder: three questions, the second shown only for "Yes", the third recorded as the surgery date.
  await signIn(page);
  await page.goto('/questionnaires/new');
  await page.getByLabel('Title', { exact: true }).fill(`Before surgery ${tag}`);
  await page.getByLabel('Slug', { exact: true }).fill(tag);
  const add = page.getByRole('button', { name: 'Add question' });
  await add.click();
  const q1 = page.getByRole('listitem', { name: 'Question 1' });
  await q1.getByLabel('Question 1 text').fill('Do you smoke?');
  await q1.getByLabel('Question 1 id').fill('smoker');
  await q1.getByLabel('Question 1 type').selectOption({ label: 'Yes / no' });
  await q1.getByLabel('Question 1 required').check();
  await add.click();
  const q2 = page.getByRole('listitem', { name: 'Question 2' });
  await q2.getByLabel('Question 2 text').fill('How many a day?');
  await q2.getByLabel('Question 2 id').fill('per-day');
  await q2.getByLabel('Question 2 type').selectOption({ label: 'Whole number' });
  await q2.getByLabel('Question 2 required').check();
  await q2.getByLabel('Question 2 minimum').fill('1');
  await q2.getByLabel('Question 2 depends on').selectOption({ label: 'when “Do you smoke?” is' });
  await q2.getByLabel('Question 2 condition answer').selectOption({ label: '“Yes”' });
  await add.click();
  const q3 = page.getByRole('listitem', { name: 'Question 3' });
  await q3.getByLabel('Question 3 text').fill('When is your surgery?');
  await q3.getByLabel('Question 3 id').fill('surgery');
  await q3.getByLabel('Question 3 type').selectOption({ label: 'Date' });
  await q3.getByLabel('Question 3 required').check();
  await pick(q3, 'Question 3 records as', `Surgery date ${tag}`);

  // The preview is the members' form: the condition hides question 2 until "Yes".
  const preview = page.getByRole('region', { name: 'Preview: as members see it' });
  await expect(preview.getByText('How many a day?')).toHaveCount(0);
  await preview.getByRole('group', { name: /Do you smoke\?/ }).getByLabel('Yes').check();
  await expect(preview.getByLabel(/How many a day\?/)).toBeVisible();
  await preview.getByRole('button', { name: 'Check answers' }).click();
  await expect(preview.getByRole('alert').filter({ hasText: 'need your attention' })).toContainText('2 answers need your attention');
  await snap(page, 'questionnaire-builder');
  await page.getByRole('button', { name: 'Create questionnaire' }).click();
  await expect(page).toHaveURL(/\/questionnaires\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Before surgery ${tag}`);
  const questionnaire = await (await request.get(`/api/v1/questionnaire/${tag}`, { headers: auth })).json();
  expect(questionnaire.items).toEqual([
    { linkId: 'smoker', type: 'boolean', text: 'Do you smoke?', required: true },
    { linkId: 'per-day', type: 'integer', text: 'How many a day?', required: true, min: 1, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
    { linkId: 'surgery', type: 'date', text: 'When is your surgery?', required: true, observationCodeId: code.id },
  ]);

  // A template with a message (an article) and an action that the admin turns into this questionnaire in the editor.
  const article = await (await request.post('/api/v1/article', { headers: auth, data: { slug: `read-${tag}`, title: `Read me ${tag}`, body: HOSTILE, status: 'published' } })).json();
  const definition = await request.post('/api/v1/careplan-definition', {
    headers: auth,
    data: {
      slug: `plan-${tag}`,
      title: `Knee ${tag}`,
      inputs: [{ key: 'surgery', observationCodeId: code.id }],
      actions: [
        { key: 'form', type: 'form', display: `Tell us about your surgery ${tag}`, start: { offset: 0, offsetUnit: 's' } },
        { key: 'read', kind: 'message', articleId: article.id, type: 'reading', display: `Read before surgery ${tag}`, start: { offset: 0, offsetUnit: 's' } },
        { key: 'fast', type: 'instruction', display: `Stop eating ${tag}`, inputKey: 'surgery', start: { offset: -12, offsetUnit: 'h' } },
      ],
    },
  });
  expect(definition.status()).toBe(201);
  const definitionId = (await definition.json()).id;
  await page.goto(`/templates/${definitionId}`);
  const action1 = page.getByRole('listitem', { name: 'Action 1' });
  await action1.getByLabel('Action 1 kind').selectOption({ label: 'Questionnaire' });
  await pick(action1, 'Action 1 questionnaire', `Before surgery ${tag}`);
  await expect(page.getByRole('listitem', { name: 'Action 2' }).getByRole('combobox', { name: 'Action 2 article' })).toHaveValue(`Read me ${tag}`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version' })).toHaveText(/Saved as version 1$/);
  await snap(page, 'template-editor-kinds');
  const saved = await (await request.get(`/api/v1/careplan-definition/${definitionId}`, { headers: auth })).json();
  expect(saved.actions[0]).toMatchObject({ key: 'form', kind: 'questionnaire', questionnaireId: questionnaire.id });
  const email = `${tag}@example.org`;
  const member = await (await request.post('/api/v1/member', { headers: auth, data: { name: `Member ${tag}`, email } })).json();
  const careplan = await (await request.post('/api/v1/careplan', { headers: auth, data: { definitionId, subjectId: member.id } })).json();
  expect(careplan.activities.map((a: { actionKey: string }) => a.actionKey).sort()).toEqual(['form', 'read']);

  const surgery = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const display = `Sign in with ${tag}`;
  const idp = await startIdentityProvider(request, display, { [tag]: { email, name: `Member ${tag}`, email_verified: true } });
  try {
    await page.context().clearCookies();
    await signInWithProvider(page, display, tag);
    await expect(page).toHaveURL(/\/me$/);
    const tasks = page.getByRole('list', { name: 'Things to do now' });
    await expect(async () => {
      await page.reload();
      await expect(tasks.getByRole('link', { name: `Fill in “Tell us about your surgery ${tag}”` })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    // The message renders its article without anything executable.
    await tasks.getByRole('link', { name: `Read “Read before surgery ${tag}”` }).click();
    await expect(page.getByRole('heading', { name: 'Safe heading' })).toBeVisible();
    await expect(page.getByText('Plain')).toBeVisible();
    await expectNoScript(page, 'main');
    await page.getByRole('link', { name: '← Back to my care' }).click();

    await tasks.getByRole('link', { name: `Fill in “Tell us about your surgery ${tag}”` }).click();
    const form = page.getByRole('form', { name: `Before surgery ${tag}` });
    await form.getByRole('button', { name: 'Send answers' }).click();
    await expect(form.getByRole('alert').filter({ hasText: 'need your attention' })).toContainText('2 answers need your attention');
    await expect(form.getByRole('group', { name: /Do you smoke\?/ })).toContainText('Please answer this question');
    await form.getByRole('group', { name: /Do you smoke\?/ }).getByLabel('Yes').check();
    const perDay = form.getByLabel(/How many a day\?/);
    await perDay.fill('a few');
    await form.getByLabel(/When is your surgery\?/).fill(surgery);
    await form.getByRole('button', { name: 'Send answers' }).click();
    await expect(perDay).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('Must be a whole number')).toBeVisible();
    await snap(page, 'member-questionnaire-errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'member-questionnaire-phone');
    await page.setViewportSize({ width: 1360, height: 900 });
    await perDay.fill('5');
    await form.getByRole('button', { name: 'Send answers' }).click();
    await expect(page).toHaveURL(/\/me\?answered=1$/);
    await expect(page.getByRole('status').filter({ hasText: 'Thank you, your answers were sent' })).toBeVisible();
    await expect(tasks.getByText(`Tell us about your surgery ${tag}`)).toHaveCount(0);
    // The date the member gave scheduled the rest of their plan.
    await expect(page.getByRole('list', { name: 'Coming up' })).toContainText(`Stop eating ${tag}`);
    await snap(page, 'member-after-answering');
  } finally {
    await idp.close();
  }

  // The coordinator sees what the answer did: the anchored activity exists, and the form links its response.
  await page.context().clearCookies();
  await signIn(page);
  await page.goto(`/careplans/${careplan.id}`);
  const activities = page.getByRole('table', { name: 'Activities' });
  await expect(activities.getByRole('row', { name: new RegExp(`Stop eating ${tag}`) })).toBeVisible();
  const formRow = activities.getByRole('row', { name: new RegExp(`Tell us about your surgery ${tag}`) });
  await expect(formRow.getByText('completed', { exact: true })).toBeVisible();
  await expect(formRow.getByText('Questionnaire', { exact: true })).toBeVisible();
  await formRow.getByRole('link', { name: `Open the response to Tell us about your surgery ${tag}` }).click();
  const answers = page.getByRole('region', { name: 'Answers' });
  await expect(answers).toContainText('Do you smoke?');
  await expect(answers).toContainText('Yes');
  await expect(answers).toContainText(surgery);
  await snap(page, 'response-view');
});

test('the article editor previews Markdown without raw HTML, and publishes', async ({ page }) => {
  const tag = unique('article');
  await signIn(page);
  await page.goto('/articles/new');
  await page.getByLabel('Title').fill(`Hostile ${tag}`);
  await page.getByLabel('Slug').fill(tag);
  await page.getByLabel('Body (Markdown)').fill(HOSTILE);
  const preview = page.getByRole('article', { name: 'Article preview' });
  await expect(preview.getByRole('heading', { name: 'Safe heading' })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'click me' })).not.toHaveAttribute('href', /javascript/i);
  await expectNoScript(page, 'article[aria-label="Article preview"]');
  await page.getByRole('button', { name: 'Create and publish' }).click();
  await expect(page).toHaveURL(/\/articles\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hostile ${tag}`);
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unpublish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'unpublished: members no longer see it' })).toBeVisible();
  await expectNoScript(page, 'article[aria-label="Article preview"]');
  await snap(page, 'article-editor');
  await page.goto('/articles');
  await page.getByLabel('Status').selectOption({ label: 'Draft' });
  await expect(page.getByRole('table', { name: 'Articles' }).getByRole('link', { name: `Hostile ${tag}` })).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'Published' });
  await expect(page.getByRole('table', { name: 'Articles' }).getByRole('link', { name: `Hostile ${tag}` })).toHaveCount(0);
});
