import { getEnv } from '@/server/env';
import { createContext } from '@/server/context';
import { generatePassword } from '@/server/core/crypto';
import { countProjects, createProject } from '@/server/services/projects/projects';
import { createUser } from '@/server/services/users/users';
import { createMember } from '@/server/services/members/members';
import { createRecordType } from '@/server/services/records/record-types';
import { createRecord } from '@/server/services/records/records';
import { createObservationCode } from '@/server/services/careplans/observations';
import { createDefinition } from '@/server/services/careplans/definitions';
import { createCareplan } from '@/server/services/careplans/careplans';
import { createArticle } from '@/server/services/articles/articles';
import { createQuestionnaire } from '@/server/services/questionnaires/questionnaires';
import { createResponse } from '@/server/services/questionnaires/responses';
import { createAppointment } from '@/server/services/scheduling/appointments';
import { createEncounter, updateEncounter } from '@/server/services/scheduling/encounters';
import { createSchedule, listSlots } from '@/server/services/scheduling/schedules';
import { setParameter } from '@/server/services/careplans/parameters';
import type { Db } from '@/db/client';

export type SeedResult = { projectId: number; apiKey: string; adminEmail: string; adminPassword: string };

/** Seeds project 1 with an admin, an integration key and (unless SEED_DEMO=false) a little demo data. */
export async function seed(db: Db): Promise<SeedResult> {
  const env = getEnv();
  const { projectId, apiKey } = await createProject(db, { name: 'Demo project', apiKey: env.SEED_API_KEY, id: 1 });
  const adminPassword = env.ADMIN_PASSWORD ?? generatePassword();
  await createUser(db, { email: env.ADMIN_EMAIL, password: adminPassword, role: 'admin', projectId, name: 'Admin' });
  if (env.SEED_DEMO) await seedDemo(db, projectId);
  return { projectId, apiKey, adminEmail: env.ADMIN_EMAIL, adminPassword };
}

async function seedDemo(db: Db, projectId: number): Promise<void> {
  const ctx = createContext(db, projectId, { kind: 'system', role: 'admin' });
  await createRecordType(ctx, { type: 'profile', permissions: { user: { read: true } } });
  await createRecordType(ctx, { type: 'preferences', permissions: { user: { read: true, write: true } } });
  await createRecordType(ctx, { type: 'care-notes', permissions: {} });
  const people = [
    ['Ada Lovelace', 'ada@example.org', 'user'],
    ['Grace Hopper', 'grace@example.org', 'user'],
    ['Alan Turing', 'alan@example.org', 'user'],
    ['Katherine Johnson', 'katherine@example.org', 'caregiver'],
    ['Edsger Dijkstra', 'edsger@example.org', 'user'],
  ] as const;
  const memberIds: number[] = [];
  for (const [i, [name, email, role]] of people.entries()) {
    const member = await createMember(ctx, { name, email, role, externalId: `crm-${1000 + i}` });
    memberIds.push(member.id);
    await createRecord(ctx, 'profile', {
      memberId: member.id,
      fields: { language: i % 2 ? 'nl' : 'en', plan: i % 3 ? 'basic' : 'premium', city: ['Utrecht', 'London', 'Oslo'][i % 3] },
    });
    await createRecord(ctx, 'preferences', { memberId: member.id, fields: { contact: { sms: i % 2 === 0, email: true } } });
  }
  await seedCarePlans(ctx, memberIds);
}

/** A knee surgery template and two enrolled members, one with the surgery date set. */
async function seedCarePlans(ctx: ReturnType<typeof createContext>, memberIds: number[]) {
  const code = await createObservationCode(ctx, { slug: 'surgery-date', display: 'Surgery date', type: 'date' });
  const article = await createArticle(ctx, {
    slug: 'before-your-surgery',
    title: 'Before your knee surgery',
    summary: 'What to do in the two weeks before the operation',
    status: 'published',
    body: [
      '## Two weeks before',
      '',
      '- Stop smoking if you can: wounds heal faster.',
      '- Arrange for someone to **take you home** and stay with you the first night.',
      '',
      '## The night before',
      '',
      'Do not eat after midnight. You may drink water until two hours before the operation.',
      '',
      'Questions? Call the ward on the number in your letter, or read the [NHS guide to knee replacement](https://www.nhs.uk/conditions/knee-replacement/).',
    ].join('\n'),
  });
  const weekdays = (['mon', 'tue', 'wed', 'thu', 'fri'] as const).flatMap((day) => [
    { day, start: '09:00', end: '12:00' },
    { day, start: '13:00', end: '17:00' },
  ]);
  const clinic = await createSchedule(ctx, {
    display: 'Dr. Jansen, knee clinic',
    slotMinutes: 30,
    availability: weekdays,
    exceptions: [],
    minimumNoticeMinutes: 60,
    bufferMinutes: 0,
    active: true,
  });
  const intake = await createQuestionnaire(ctx, {
    slug: 'pre-op-intake',
    title: 'Before your surgery',
    description: 'Takes about two minutes. Your answers help us plan your care.',
    status: 'active',
    items: [
      { linkId: 'surgery-date', type: 'date', text: 'When is your surgery?', required: true, observationCodeId: code.id },
      { linkId: 'smoker', type: 'boolean', text: 'Do you smoke?', required: true },
      { linkId: 'per-day', type: 'integer', text: 'How many cigarettes a day?', required: true, min: 1, max: 100, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
      { linkId: 'mobility', type: 'choice', text: 'How do you get around today?', options: [{ value: 'unaided', display: 'Without help' }, { value: 'stick', display: 'With a stick' }, { value: 'frame', display: 'With a frame' }] },
      { linkId: 'worries', type: 'text', text: 'Anything you are worried about?' },
    ],
  });
  const definition = await createDefinition(ctx, {
    slug: 'knee-surgery',
    title: 'Knee surgery',
    inputs: [{ key: 'surgery', observationCodeId: code.id }],
    actions: [
      { key: 'intake-form', kind: 'questionnaire', questionnaireId: intake.id, type: 'form', display: 'Tell us about your surgery', description: 'Your surgery date schedules the rest of your plan.', actorType: 'subject', start: { offset: 0, offsetUnit: 'd' }, reminders: [] },
      { key: 'read-prep', kind: 'message', articleId: article.id, type: 'reading', display: 'Read: before your surgery', actorType: 'subject', start: { offset: 0, offsetUnit: 'd' }, reminders: [] },
      { key: 'consult', kind: 'appointment', scheduleId: clinic.id, type: 'consultation', display: 'Book a pre-op consultation', description: 'About 30 minutes with the anaesthetist.', actorType: 'subject', start: { offset: 1, offsetUnit: 'd' }, reminders: [] },
      { key: 'intake', kind: 'task', type: 'call', display: 'Intake call', actorType: 'nurse', start: { offset: 2, offsetUnit: 'd' }, end: { offset: 5, offsetUnit: 'd' }, reminders: [] },
      { key: 'fasting', kind: 'task', type: 'instruction', display: 'Stop eating', actorType: 'subject', inputKey: 'surgery', start: { offset: -12, offsetUnit: 'h' }, end: { offset: 12, offsetUnit: 'h' }, reminders: [{ offset: 0, offsetUnit: 's', title: 'No food from now on' }] },
      { key: 'wound-check', kind: 'task', type: 'visit', display: 'Wound check', actorType: 'nurse', inputKey: 'surgery', start: { offset: 10, offsetUnit: 'd' }, end: { offset: 3, offsetUnit: 'd' }, reminders: [] },
      { key: 'physio', kind: 'task', type: 'visit', display: 'Physiotherapy', actorType: 'subject', inputKey: 'surgery', start: { offset: 3, offsetUnit: 'wk' }, end: { offset: 2, offsetUnit: 'mo' }, reminders: [{ offset: 1, offsetUnit: 'd' }] },
      { key: 'review', kind: 'task', type: 'visit', display: 'Six-month review', actorType: 'subject', inputKey: 'surgery', start: { offset: 6, offsetUnit: 'mo' }, end: { offset: 2, offsetUnit: 'wk' }, reminders: [] },
    ],
  });
  const [first, second] = memberIds;
  const plan = await createCareplan(ctx, { definitionId: definition.id, subjectId: first! });
  const surgery = new Date(Date.now() + 14 * 24 * 3_600_000).toISOString().slice(0, 10);
  await setParameter(ctx, { careplanId: plan.id, inputId: plan.parameters![0]!.inputId, observation: { value: surgery, observedAt: new Date().toISOString() } });
  await createCareplan(ctx, { definitionId: definition.id, subjectId: second! });
  // Two booked consultations in the coming days, and yesterday's visit, recorded and finished.
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
  const slots = await listSlots(ctx, clinic.id, from, to);
  const [a, b] = [slots[0], slots[3]];
  if (a && b) {
    await createAppointment(ctx, { scheduleId: clinic.id, subjectId: first!, start: a.start, title: 'Pre-op consultation' });
    await createAppointment(ctx, { scheduleId: clinic.id, subjectId: second!, start: b.start, title: 'First consultation' });
  }
  const yesterday = new Date(Date.now() - 86_400_000);
  yesterday.setUTCHours(10, 0, 0, 0);
  const visit = await createEncounter(ctx, { subjectId: first!, status: 'in-progress', start: yesterday.toISOString(), note: 'Knee assessment.' });
  await updateEncounter(ctx, visit.id, { status: 'finished', end: new Date(yesterday.getTime() + 30 * 60_000).toISOString(), note: 'Range of motion 0-110 degrees; surgery planned.' });
  // The first member's paper intake form, entered by the care team: their plan's date was already set, so it stays.
  await createResponse(ctx, {
    questionnaireId: intake.id,
    subjectId: first!,
    status: 'completed',
    answers: [
      { linkId: 'surgery-date', value: surgery },
      { linkId: 'smoker', value: false },
      { linkId: 'mobility', value: 'stick' },
    ],
  });
}

/** On an empty database: seed and print what a person needs to sign in. */
export async function seedIfEmpty(db: Db): Promise<SeedResult | undefined> {
  if ((await countProjects(db)) > 0) return undefined;
  const result = await seed(db);
  printSeed(result);
  return result;
}

export function printSeed(r: SeedResult): void {
  const line = '─'.repeat(64);
  console.log(
    [
      line,
      ' Carebase seeded project 1',
      `   admin sign-in : ${r.adminEmail} / ${r.adminPassword}`,
      `   API key       : ${r.apiKey}`,
      line,
    ].join('\n'),
  );
}
