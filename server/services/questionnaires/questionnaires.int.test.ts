import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { apiClient, newProject } from '@/server/testing/api';

const eventsNamed = async (db: any, projectId: number, name: string) => db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, name))).orderBy(events.id);

/** One item of every type (CONTRACT 9), with a condition and two mapped items. */
const everyType = (codes: { date: number; number: number }) => [
  { linkId: 'intro', type: 'display', text: 'A few questions before your surgery' },
  { linkId: 'name', type: 'string', text: 'What should we call you?' },
  { linkId: 'story', type: 'text', text: 'Tell us about your knee' },
  { linkId: 'smoker', type: 'boolean', text: 'Do you smoke?', required: true },
  { linkId: 'per-day', type: 'integer', text: 'How many a day?', required: true, min: 1, max: 100, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
  { linkId: 'weight', type: 'decimal', text: 'Weight (kg)', min: 20, max: 400.5, observationCodeId: codes.number },
  { linkId: 'surgery', type: 'date', text: 'When is your surgery?', required: true, observationCodeId: codes.date },
  { linkId: 'allergies', type: 'choice', repeats: true, text: 'Allergies', options: [{ value: 'latex', display: 'Latex' }, { value: 'penicillin', display: 'Penicillin' }] },
  { linkId: 'mobility', type: 'choice', text: 'Mobility', options: [{ value: 'walks', display: 'Walks unaided' }, { value: 'stick', display: 'With a stick' }] },
];

async function setup() {
  const p = await newProject();
  const date = (await p.api.post('/observation-code', { slug: 'surgery-date', display: 'Surgery date', type: 'date' })).body;
  const number = (await p.api.post('/observation-code', { slug: 'weight', display: 'Weight', type: 'number' })).body;
  const text = (await p.api.post('/observation-code', { slug: 'note', display: 'Note', type: 'string' })).body;
  const bool = (await p.api.post('/observation-code', { slug: 'smokes', display: 'Smokes', type: 'boolean' })).body;
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  return { ...p, codes: { date: date.id, number: number.id, string: text.id, boolean: bool.id }, member };
}

describe('questionnaires (CONTRACT 9)', () => {
  it('creates version 1 with items of every type, records questionnaire_create, and reads by id or slug', async () => {
    const { api, db, projectId, codes } = await setup();
    const items = everyType(codes);
    const res = await api.post('/questionnaire', { slug: 'pre-op', title: 'Before your surgery', description: 'Takes 2 minutes', items });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/api/v1/questionnaire/${res.body.id}$`));
    expect(res.body).toEqual({
      id: expect.any(Number),
      slug: 'pre-op',
      title: 'Before your surgery',
      description: 'Takes 2 minutes',
      status: 'active',
      version: 1,
      items,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api.get('/questionnaire/pre-op')).body).toEqual(res.body);
    expect((await api.get(`/questionnaire/${res.body.id}`)).body).toEqual(res.body);
    const recorded = await eventsNamed(db, projectId, 'questionnaire_create');
    expect(recorded.map((e: any) => e.responseData)).toEqual([res.body]);
    expect((await api.post('/questionnaire', { slug: 'pre-op', title: 'Again' })).status).toBe(409);
    const draft = (await api.post('/questionnaire', { slug: 'later', title: 'Later', status: 'draft' })).body;
    expect(draft).toMatchObject({ status: 'draft', items: [], description: null });
    expect((await api.get('/questionnaire', { status: 'draft' })).body.map((q: any) => q.slug)).toEqual(['later']);
    expect((await api.get('/questionnaire', { slug: 'pre-op' })).body.map((q: any) => q.slug)).toEqual(['pre-op']);
  });

  it('refuses every broken item rule at its place, and stores nothing', async () => {
    const { api, codes } = await setup();
    const items = [
      { linkId: 'a', type: 'string', text: 'A', repeats: true, min: 1 },
      { linkId: 'a', type: 'display', text: 'Again', required: true },
      { linkId: 'b', type: 'choice', text: 'B' },
      { linkId: 'c', type: 'string', text: 'C', options: [{ value: 'x', display: 'X' }] },
      { linkId: 'd', type: 'integer', text: 'D', min: 5, max: 1.5 },
      { linkId: 'e', type: 'boolean', text: 'E', enableWhen: { linkId: 'later', operator: 'exists' } },
      { linkId: 'later', type: 'boolean', text: 'Later' },
      { linkId: 'f', type: 'string', text: 'F', enableWhen: { linkId: 'later', operator: 'equals' } },
      { linkId: 'g', type: 'string', text: 'G', enableWhen: { linkId: 'later', operator: 'equals', answer: 'yes' } },
      { linkId: 'h', type: 'string', text: 'H', enableWhen: { linkId: 'later', operator: 'exists', answer: true } },
      { linkId: 'i', type: 'choice', text: 'I', options: [{ value: 'x', display: 'X' }, { value: 'x', display: 'Y' }] },
      { linkId: 'j', type: 'date', text: 'J', observationCodeId: codes.number },
      { linkId: 'k', type: 'choice', repeats: true, text: 'K', options: [{ value: 'x', display: 'X' }], observationCodeId: codes.string },
      { linkId: 'l', type: 'integer', text: 'L', observationCodeId: 2147483647 },
      { linkId: 'm', type: 'string', text: 'M', enableWhen: { linkId: 'intro', operator: 'exists' } },
    ];
    const res = await api.post('/questionnaire', { slug: 'q', title: 'Q', items });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(
      [
        'items.0.repeats',
        'items.0.min',
        'items.1.linkId',
        'items.1.required',
        'items.2.options',
        'items.3.options',
        // a fractional bound of an integer item, and max below min
        'items.4.max',
        'items.4.max',
        'items.5.enableWhen.linkId',
        'items.7.enableWhen.answer',
        'items.8.enableWhen.answer',
        'items.9.enableWhen.answer',
        'items.10.options.1.value',
        'items.12.observationCodeId',
        'items.14.enableWhen.linkId',
      ].sort(),
    );
    // Malformed items are named field by field (the rules between items run once every item is well formed).
    const shape = await api.post('/questionnaire', { slug: 'q', title: 'Q', items: [{ linkId: 'ok', type: 'string', text: 'OK' }, { linkId: 'bad id', type: 'colour', text: '' }] });
    expect(shape.body.errors.map((e: any) => e.path).sort()).toEqual(['items.1.linkId', 'items.1.text', 'items.1.type']);
    // Code checks come after the shape is valid: each mapped item names a fitting code of the project.
    const codeCheck = await api.post('/questionnaire', { slug: 'q', title: 'Q', items: [items[11], items[13]] });
    expect(codeCheck.status).toBe(400);
    expect(codeCheck.body.errors.map((e: any) => e.path)).toEqual(['items.0.observationCodeId', 'items.1.observationCodeId']);
    expect((await api.get('/questionnaire')).body).toEqual([]);
    const fitting = [
      { linkId: 's', type: 'string', text: 'S', observationCodeId: codes.string },
      { linkId: 't', type: 'text', text: 'T', observationCodeId: codes.string },
      { linkId: 'c', type: 'choice', text: 'C', options: [{ value: 'x', display: 'X' }], observationCodeId: codes.string },
      { linkId: 'b', type: 'boolean', text: 'B', observationCodeId: codes.boolean },
      { linkId: 'i', type: 'integer', text: 'I', observationCodeId: codes.number },
    ];
    expect((await api.post('/questionnaire', { slug: 'q', title: 'Q', items: fitting })).status).toBe(201);
    const wrongType = await api.post('/questionnaire', { slug: 'q2', title: 'Q', items: [{ linkId: 'b', type: 'boolean', text: 'B', observationCodeId: codes.string }] });
    expect(wrongType.body.errors).toEqual([{ path: 'items.0.observationCodeId', message: expect.stringContaining('string code') }]);
  });

  it('versions like templates: edits in place until a response answers it, then version+1; status alone never versions', async () => {
    const { api, db, projectId, member } = await setup();
    const q1 = (await api.post('/questionnaire', { slug: 'mood', title: 'Mood', items: [{ linkId: 'ok', type: 'boolean', text: 'OK?' }] })).body;
    const edited = (await api.patch('/questionnaire/mood', { title: 'Your mood' })).body;
    expect(edited).toMatchObject({ version: 1, title: 'Your mood' });
    expect((await api.post('/questionnaire-response', { questionnaireId: q1.id, subjectId: member.id, answers: [{ linkId: 'ok', value: true }] })).status).toBe(201);
    const v2 = (await api.patch('/questionnaire/mood', { items: [{ linkId: 'ok', type: 'boolean', text: 'Are you OK?', required: true }] })).body;
    expect(v2).toMatchObject({ version: 2, title: 'Your mood', items: [{ linkId: 'ok', text: 'Are you OK?', required: true }] });
    expect((await api.get('/questionnaire/mood', { version: 1 })).body).toMatchObject({ version: 1, items: [{ linkId: 'ok', text: 'OK?' }] });
    expect((await api.get('/questionnaire/mood', { version: 3 })).status).toBe(404);
    // No response answers version 2 yet: edited in place.
    expect((await api.patch('/questionnaire/mood', { description: 'Weekly' })).body).toMatchObject({ version: 2, description: 'Weekly' });
    expect((await api.patch('/questionnaire/mood', { status: 'retired' })).body).toMatchObject({ version: 2, status: 'retired' });
    expect((await api.patch('/questionnaire/mood', { status: 'active', newVersion: true })).body).toMatchObject({ version: 2, status: 'active' });
    expect((await api.patch('/questionnaire/mood', { newVersion: true, title: 'Mood check' })).body).toMatchObject({ version: 3, title: 'Mood check', description: 'Weekly' });
    expect((await api.patch('/questionnaire/mood', { items: [{ linkId: 'x', type: 'string', text: 'X', enableWhen: { linkId: 'y', operator: 'exists' } }] })).status).toBe(400);
    expect((await api.get('/questionnaire/mood')).body.version).toBe(3);
    const updates = await eventsNamed(db, projectId, 'questionnaire_update');
    expect(updates.map((e: any) => e.params)).toEqual([
      { id: q1.id, title: 'Your mood' },
      { id: q1.id, items: [{ linkId: 'ok', type: 'boolean', text: 'Are you OK?', required: true }] },
      { id: q1.id, description: 'Weekly' },
      { id: q1.id, status: 'retired' },
      { id: q1.id, status: 'active', newVersion: true },
      { id: q1.id, title: 'Mood check', newVersion: true },
    ]);
  });

  it('members read active questionnaires only; deletion waits for responses and templates', async () => {
    const { api, member } = await setup();
    const active = (await api.post('/questionnaire', { slug: 'active', title: 'Active', items: [{ linkId: 'ok', type: 'boolean', text: 'OK?' }] })).body;
    await api.post('/questionnaire', { slug: 'draft', title: 'Draft', status: 'draft' });
    await api.post('/questionnaire', { slug: 'retired', title: 'Retired', status: 'retired' });
    const asMember = apiClient((await api.post(`/member/${member.id}/token`)).body.token);
    expect((await asMember.get('/questionnaire')).body.map((q: any) => q.slug)).toEqual(['active']);
    expect((await asMember.get('/questionnaire/draft')).status).toBe(404);
    expect((await asMember.get('/questionnaire/retired')).status).toBe(404);
    expect((await asMember.get('/questionnaire/active')).body).toEqual(active);
    expect((await asMember.post('/questionnaire', { slug: 'x', title: 'X' })).status).toBe(403);
    expect((await asMember.patch('/questionnaire/active', { title: 'X' })).status).toBe(403);

    const def = (
      await api.post('/careplan-definition', {
        slug: 'plan',
        title: 'Plan',
        actions: [{ key: 'form', kind: 'questionnaire', questionnaireId: active.id, type: 'form', display: 'Fill in', start: { offset: 1, offsetUnit: 'd' } }],
      })
    ).body;
    expect((await api.del('/questionnaire/active')).status).toBe(409);
    await api.patch(`/careplan-definition/${def.id}`, { actions: [] });
    expect((await api.post('/questionnaire-response', { questionnaireId: active.id, subjectId: member.id, answers: [] })).status).toBe(201);
    const answered = await api.del('/questionnaire/active');
    expect(answered.status).toBe(409);
    expect(answered.body.detail).toMatch(/Responses/);
    expect((await api.del('/questionnaire/draft')).status).toBe(204);
    expect((await api.get('/questionnaire/draft')).status).toBe(404);
  });

  it('refuses to delete an observation code a questionnaire records answers as', async () => {
    const { api, codes } = await setup();
    await api.post('/questionnaire', { slug: 'q', title: 'Q', items: [{ linkId: 'w', type: 'decimal', text: 'W', observationCodeId: codes.number }] });
    const refused = await api.del(`/observation-code/${codes.number}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('q');
    expect((await api.del(`/observation-code/${codes.boolean}`)).status).toBe(204);
  });
});
