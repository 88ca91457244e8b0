import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { EVENT_CATALOGUE } from '@/server/services/events/catalogue';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { linkAccount } from '@/server/services/identity/link-account';
import { newProject } from '@/server/testing/api';

/** Every one of the spec's 27 events can occur (issue 12): one project triggers each through the API. */
describe('the 27 events', () => {
  it('are each recorded by an operation of the API', async () => {
    const { api, db, projectId } = await newProject();
    const ok = async (res: Promise<{ status: number; body: any }>, status = [200, 201, 204]) => {
      const r = await res;
      expect(status, `${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
      return r.body;
    };
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

    const member = await ok(api.post('/member', { name: 'Pat', email: 'pat@example.org' }));
    await ok(api.patch(`/member/${member.id}`, { name: 'Patricia' }));
    const gone = await ok(api.post('/member', { name: 'Gone' }));
    await ok(api.del(`/member/${gone.id}`));
    const provider = await ok(api.post('/identity-provider', { display: 'Login', issuer: 'https://93.184.215.14/', clientId: 'c', clientSecret: 's' }));
    await linkAccount(db, { providerId: provider.id, sub: 'ext', userinfo: { sub: 'ext', email: 'pat@example.org' } });

    const code = await ok(api.post('/observation-code', { slug: 'surgery', display: 'Surgery', type: 'date' }));
    const article = await ok(api.post('/article', { slug: 'a', title: 'A', body: 'Read', status: 'published' }));
    const questionnaire = await ok(api.post('/questionnaire', { slug: 'q', title: 'Q', items: [{ linkId: 'when', type: 'date', text: 'When?', observationCodeId: code.id }] }));
    await ok(api.patch(`/questionnaire/${questionnaire.id}`, { title: 'Q2' }));
    const schedule = await ok(api.post('/schedule', { display: 'Clinic', availability: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => ({ day: d, start: '09:00', end: '12:00' })) }));
    await ok(api.patch(`/schedule/${schedule.id}`, { bufferMinutes: 5 }));

    const definition = await ok(
      api.post('/careplan-definition', {
        slug: 'plan',
        title: 'Plan',
        inputs: [{ key: 'surgery', observationCodeId: code.id }],
        actions: [
          { key: 'read', kind: 'message', articleId: article.id, type: 'read', display: 'Read', start: { offset: 0, offsetUnit: 's' }, end: { offset: 1, offsetUnit: 'h' }, reminders: [{ offset: 1, offsetUnit: 'min' }] },
          { key: 'book', kind: 'appointment', scheduleId: schedule.id, type: 'visit', display: 'Book', start: { offset: 0, offsetUnit: 's' } },
        ],
      }),
    );
    await ok(api.patch(`/careplan-definition/${definition.id}`, { title: 'Plan 2' }));
    const spare = await ok(api.post('/careplan-definition', { slug: 'spare', title: 'Spare', actions: [] }));
    await ok(api.del(`/careplan-definition/${spare.id}`));
    const plan = await ok(api.post('/careplan', { definitionId: definition.id, subjectId: member.id }));
    await ok(api.patch(`/careplan/${plan.id}`, { title: 'My plan' }));
    const other = await ok(api.post('/careplan', { definitionId: definition.id, subjectId: member.id }));
    await ok(api.del(`/careplan/${other.id}`));
    const extra = await ok(api.post('/activity', { careplanId: plan.id, type: 'x', display: 'Extra', activateAt: '2031-01-01T09:00:00Z' }));
    await ok(api.patch(`/activity/${extra.id}`, { display: 'Extra task' }));
    await ok(api.del(`/activity/${extra.id}`));
    // Scheduled now, reminded after a minute, expired after an hour.
    const t0 = Date.now();
    await runDueTransitions(db, { now: new Date(t0 + 1_000), projectId });
    await runDueTransitions(db, { now: new Date(t0 + 2 * 60_000), projectId });

    const response = await ok(api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, answers: [{ linkId: 'when', value: '2031-05-01' }] }));
    await ok(api.patch(`/questionnaire-response/${response.id}`, { answers: [{ linkId: 'when', value: '2031-05-02' }] }));
    const [slot] = (await api.get(`/schedule/${schedule.id}/slot`, { from: day, to: day })).body;
    const book = plan.activities.find((a: any) => a.actionKey === 'book');
    const appointment = await ok(api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: slot.start, activityId: book.id }));
    await ok(api.patch(`/appointment/${appointment.id}`, { note: 'By phone' }));
    const encounter = await ok(api.post('/encounter', { subjectId: member.id, appointmentId: appointment.id }));
    await ok(api.patch(`/encounter/${encounter.id}`, { status: 'finished' }));
    await runDueTransitions(db, { now: new Date(t0 + 2 * 3_600_000), projectId });

    const recorded = await db.select().from(events).where(eq(events.projectId, projectId));
    const names = new Set(recorded.map((e: { name: string }) => e.name));
    expect([...EVENT_NAMES].filter((n) => !names.has(n))).toEqual([]);
    expect(names.size).toBe(27);

    // The payload catalogue (CONTRACT 11) is true to what was sent: every recorded event fits its schemas.
    for (const e of recorded) {
      const entry = EVENT_CATALOGUE[e.name as EventName];
      const params = entry.params.safeParse(e.params);
      expect(params.success, `${e.name} params ${JSON.stringify(e.params)}: ${JSON.stringify(params.error?.issues)}`).toBe(true);
      const data = entry.responseData.safeParse(e.responseData);
      expect(data.success, `${e.name} responseData: ${JSON.stringify(data.error?.issues)}`).toBe(true);
    }
  }, 60_000); // 27 operations through the API: 2.2 s alone, 9.7 s in a CI run on two busy cores
});
