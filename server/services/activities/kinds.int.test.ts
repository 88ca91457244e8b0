import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { careplanDefinitionVersions, events } from '@/db/schema';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { apiClient, newProject } from '@/server/testing/api';

const start = { offset: 0, offsetUnit: 'd' };

async function setup() {
  const p = await newProject();
  const article = (await p.api.post('/article', { slug: 'a', title: 'A', body: 'Read me', status: 'published' })).body;
  const questionnaire = (await p.api.post('/questionnaire', { slug: 'q', title: 'Q', items: [{ linkId: 'ok', type: 'boolean', text: 'OK?' }] })).body;
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  return { ...p, article, questionnaire, member };
}

describe('activity kinds (CONTRACT 9)', () => {
  it('validates the reference fields per kind on template actions, naming each field', async () => {
    const { api, article, questionnaire } = await setup();
    const action = (fields: Record<string, unknown>) => ({ key: 'x', type: 't', display: 'X', start, ...fields });
    const refused = await api.post('/careplan-definition', {
      slug: 'd',
      title: 'D',
      actions: [
        action({ key: 'a', kind: 'task', articleId: article.id }),
        action({ key: 'b', kind: 'questionnaire' }),
        action({ key: 'c', kind: 'message', questionnaireId: questionnaire.id }),
        action({ key: 'd', kind: 'appointment', articleId: article.id }),
        action({ key: 'e', kind: 'lesson' }),
        action({ key: 'f', kind: 'message', description: 'x'.repeat(2001) }),
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.path).sort()).toEqual([
      'actions.0.articleId',
      'actions.1.questionnaireId',
      'actions.2.questionnaireId',
      'actions.3.articleId',
      'actions.4.kind',
      'actions.5.description',
    ]);
    const other = await newProject();
    const foreign = (await other.api.post('/article', { slug: 'f', title: 'F', body: '' })).body;
    const unknown = await api.post('/careplan-definition', {
      slug: 'd',
      title: 'D',
      actions: [action({ key: 'a', kind: 'message', articleId: foreign.id }), action({ key: 'b', kind: 'questionnaire', questionnaireId: 2147483647 }), action({ key: 'c', kind: 'appointment', scheduleId: 1 })],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: any) => e.path)).toEqual(['actions.0.articleId', 'actions.1.questionnaireId', 'actions.2.scheduleId']);
    expect((await api.get('/careplan-definition')).body).toEqual([]);
    const ok = await api.post('/careplan-definition', {
      slug: 'd',
      title: 'D',
      actions: [action({ key: 'a' }), action({ key: 'b', kind: 'message' }), action({ key: 'c', kind: 'appointment', description: 'Book a consultation' })],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.actions.map((a: any) => a.kind)).toEqual(['task', 'message', 'appointment']);
    expect((await api.patch('/careplan-definition/d', { actions: [action({ key: 'a', kind: 'questionnaire', questionnaireId: 2147483647 })] })).body.errors[0].path).toBe('actions.0.questionnaireId');
  });

  it('gives activities the kind, description and reference of their action; tasks of older templates read as tasks', async () => {
    const { api, db, article, questionnaire, member } = await setup();
    const def = (
      await api.post('/careplan-definition', {
        slug: 'd',
        title: 'D',
        actions: [
          { key: 'phone', type: 'call', display: 'Call', start },
          { key: 'read', kind: 'message', description: 'Before Monday', articleId: article.id, type: 'read', display: 'Read', start },
          { key: 'form', kind: 'questionnaire', questionnaireId: questionnaire.id, type: 'form', display: 'Fill in', start },
          { key: 'book', kind: 'appointment', type: 'visit', display: 'Book', start },
        ],
      })
    ).body;
    // An action saved before kinds existed has no kind in its JSON.
    const [version] = (await db.select().from(careplanDefinitionVersions).where(eq(careplanDefinitionVersions.definitionId, def.id))) as [typeof careplanDefinitionVersions.$inferSelect];
    const legacy = version.actions.map((a: any) => (a.key === 'phone' ? Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'kind')) : a));
    await db.update(careplanDefinitionVersions).set({ actions: legacy }).where(eq(careplanDefinitionVersions.id, version.id));
    expect((await api.get('/careplan-definition/d')).body.actions[0].kind).toBe('task');
    const plan = (await api.post('/careplan', { definitionId: def.id, subjectId: member.id })).body;
    const byKey = Object.fromEntries(plan.activities.map((a: any) => [a.actionKey, a]));
    const none = { description: null, articleId: null, questionnaireId: null, scheduleId: null, questionnaireResponseId: null, appointmentId: null };
    expect(byKey.phone).toMatchObject({ ...none, kind: 'task' });
    expect(byKey.read).toMatchObject({ ...none, kind: 'message', description: 'Before Monday', articleId: article.id });
    expect(byKey.form).toMatchObject({ ...none, kind: 'questionnaire', questionnaireId: questionnaire.id });
    expect(byKey.book).toMatchObject({ ...none, kind: 'appointment' });
    expect((await api.get('/activity', { kind: 'questionnaire' })).body.map((a: any) => a.id)).toEqual([byKey.form.id]);
    expect((await api.get('/activity', { kind: 'message', careplanId: plan.id })).body.map((a: any) => a.id)).toEqual([byKey.read.id]);
    expect((await api.get('/activity', { kind: 'chore' })).status).toBe(400);
  });

  it('completes tasks and messages by PATCH; questionnaire and appointment activities only by their response or booking (409)', async () => {
    const { api, db, projectId, article, questionnaire, member } = await setup();
    const def = (
      await api.post('/careplan-definition', {
        slug: 'd',
        title: 'D',
        actions: [
          { key: 'phone', type: 'call', display: 'Call', start },
          { key: 'read', kind: 'message', articleId: article.id, type: 'read', display: 'Read', start },
          { key: 'form', kind: 'questionnaire', questionnaireId: questionnaire.id, type: 'form', display: 'Fill in', start },
          { key: 'book', kind: 'appointment', type: 'visit', display: 'Book', start },
          { key: 'form2', kind: 'questionnaire', questionnaireId: questionnaire.id, type: 'form', display: 'Again', start },
        ],
      })
    ).body;
    const plan = (await api.post('/careplan', { definitionId: def.id, subjectId: member.id })).body;
    await runDueTransitions(db, { now: new Date(Date.now() + 1000), projectId });
    const id = (key: string) => plan.activities.find((a: any) => a.actionKey === key).id;
    const asMember = apiClient((await api.post(`/member/${member.id}/token`)).body.token);
    expect((await asMember.patch(`/activity/${id('read')}`, { status: 'completed' })).body.status).toBe('completed');
    expect((await api.patch(`/activity/${id('phone')}`, { status: 'completed' })).body.status).toBe('completed');
    for (const key of ['form', 'book']) {
      for (const client of [api, asMember]) {
        const refused = await client.patch(`/activity/${id(key)}`, { status: 'completed' });
        expect(refused.status).toBe(409);
        expect(refused.body.errors[0].path).toBe('status');
      }
      expect((await api.get(`/activity/${id(key)}`)).body.status).toBe('scheduled');
    }
    expect((await api.patch(`/activity/${id('form2')}`, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await api.patch(`/activity/${id('book')}`, { status: 'cancelled' })).body.status).toBe('cancelled');
    const updates = await db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, 'activity_update')));
    expect(updates.map((e: any) => e.params.status).sort()).toEqual(['cancelled', 'cancelled', 'completed', 'completed']);
  });

  it('POST /activity takes the kind fields of an action, with the same rules', async () => {
    const { api, article, questionnaire, member } = await setup();
    const def = (await api.post('/careplan-definition', { slug: 'd', title: 'D', actions: [] })).body;
    const plan = (await api.post('/careplan', { definitionId: def.id, subjectId: member.id })).body;
    const base = { careplanId: plan.id, type: 'extra', display: 'Extra', activateAt: '2030-01-01T09:00:00Z' };
    const message = await api.post('/activity', { ...base, kind: 'message', articleId: article.id, description: 'Please read' });
    expect(message.status, JSON.stringify(message.body)).toBe(201);
    expect(message.body).toMatchObject({ kind: 'message', articleId: article.id, description: 'Please read', questionnaireId: null });
    const form = await api.post('/activity', { ...base, kind: 'questionnaire', questionnaireId: questionnaire.id });
    expect(form.body).toMatchObject({ kind: 'questionnaire', questionnaireId: questionnaire.id });
    expect((await api.post('/activity', base)).body.kind).toBe('task');
    const refused = await api.post('/activity', { ...base, kind: 'task', articleId: article.id });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.path)).toEqual(['articleId']);
    expect((await api.post('/activity', { ...base, kind: 'questionnaire' })).body.errors.map((e: any) => e.path)).toEqual(['questionnaireId']);
    expect((await api.post('/activity', { ...base, kind: 'message', articleId: 2147483647 })).body.errors.map((e: any) => e.path)).toEqual(['articleId']);
    expect((await api.get('/activity', { careplanId: plan.id })).body).toHaveLength(3);
  });
});
