import { getEnv } from '@/server/env';
import { createContext, type ServiceContext } from '@/server/context';
import { generatePassword } from '@/server/core/crypto';
import { countProjects, createProject } from '@/server/services/projects/projects';
import { createUser } from '@/server/services/users/users';
import { inviteUser } from '@/server/services/users/team';
import { createMember } from '@/server/services/members/members';
import { createRecordType } from '@/server/services/records/record-types';
import { createRecord } from '@/server/services/records/records';
import { createObservationCode } from '@/server/services/careplans/observations';
import { createDefinition, updateDefinition } from '@/server/services/careplans/definitions';
import { createCareplan, updateCareplan } from '@/server/services/careplans/careplans';
import { createArticle } from '@/server/services/articles/articles';
import { createQuestionnaire, updateQuestionnaire } from '@/server/services/questionnaires/questionnaires';
import { createResponse } from '@/server/services/questionnaires/responses';
import { createAppointment } from '@/server/services/scheduling/appointments';
import { createEncounter, updateEncounter } from '@/server/services/scheduling/encounters';
import { createSchedule, listSlots } from '@/server/services/scheduling/schedules';
import { setParameter } from '@/server/services/careplans/parameters';
import { createIntegration, createApiKey } from '@/server/services/integrations/integrations';
import type { Db } from '@/db/client';

export type SeedResult = { projectId: number; apiKey: string; adminEmail: string; adminPassword: string };

export const DEMO_PROJECT = 'Riverside Orthopaedic Care';
const ZONE = 'Europe/London';

/** Seeds project 1 with an admin, an integration key and (unless SEED_DEMO=false) a demo programme. */
export async function seed(db: Db): Promise<SeedResult> {
  const env = getEnv();
  const { projectId, apiKey } = await createProject(db, { name: DEMO_PROJECT, apiKey: env.SEED_API_KEY, id: 1, timeZone: ZONE });
  const adminPassword = env.ADMIN_PASSWORD ?? generatePassword();
  await createUser(db, { email: env.ADMIN_EMAIL, password: adminPassword, role: 'admin', projectId, name: 'Alex Morgan' });
  if (env.SEED_DEMO) await seedDemo(db, projectId);
  return { projectId, apiKey, adminEmail: env.ADMIN_EMAIL, adminPassword };
}

const DAY = 86_400_000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

/**
 * A knee and hip replacement programme as a clinic would run it: a care team, patients at different
 * points of their pathway (waiting, about to be operated on, recovering, done), the forms and reading
 * material they get, clinic and physiotherapy calendars with bookings, and a CRM integration.
 */
async function seedDemo(db: Db, projectId: number): Promise<void> {
  const ctx = createContext(db, projectId, { kind: 'system', role: 'admin' });
  await seedTeam(db, ctx, projectId);
  const crm = await createIntegration(ctx, { display: 'Patient CRM', slug: 'patient-crm' });
  await createApiKey(ctx, crm.id, { name: 'Nightly sync' });

  await createRecordType(ctx, { type: 'profile', permissions: { patient: { read: true } } });
  await createRecordType(ctx, { type: 'contact-preferences', permissions: { patient: { read: true, write: true } } });
  await createRecordType(ctx, { type: 'care-notes', permissions: {} });

  const people = [
    { name: 'Margaret Okafor', email: 'margaret.okafor@example.org', city: 'Leeds', language: 'English', gp: 'Dr. Patel, Hyde Park Surgery' },
    { name: 'James Whitfield', email: 'j.whitfield@example.org', city: 'Harrogate', language: 'English', gp: 'Dr. Green, Harrogate Medical' },
    { name: 'Aisha Rahman', email: 'aisha.rahman@example.org', city: 'Bradford', language: 'Urdu', gp: 'Dr. Hussain, Manningham Practice' },
    { name: 'Tomasz Nowak', email: 'tomasz.nowak@example.org', city: 'Wakefield', language: 'Polish', gp: 'Dr. Evans, Northgate Surgery' },
    { name: 'Linda Castillo', email: 'linda.castillo@example.org', city: 'York', language: 'Spanish', gp: 'Dr. Reid, Monkgate Health' },
    { name: 'Robert MacLeod', email: 'rob.macleod@example.org', city: 'Leeds', language: 'English', gp: 'Dr. Patel, Hyde Park Surgery' },
  ];
  const members = [];
  for (const [i, p] of people.entries()) {
    const m = await createMember(ctx, { name: p.name, email: p.email, role: 'patient', externalId: `MRN-${400210 + i * 37}`, timeZone: ZONE, meta: { referredBy: p.gp } });
    members.push(m);
    await createRecord(ctx, 'profile', { memberId: m.id, fields: { city: p.city, preferredLanguage: p.language, registeredGp: p.gp, interpreterNeeded: p.language !== 'English' } });
    await createRecord(ctx, 'contact-preferences', { memberId: m.id, fields: { byText: i % 2 === 0, byEmail: true, bestTimeToCall: i % 3 === 0 ? 'mornings' : 'afternoons' } });
  }
  await createRecord(ctx, 'care-notes', { memberId: members[0]!.id, fields: { note: 'Lives alone; daughter can stay the first week after surgery.', author: 'Priya Shah' } });
  const carer = await createMember(ctx, { name: 'Daniel Okafor', email: 'daniel.okafor@example.org', role: 'carer', timeZone: ZONE, meta: { caresFor: members[0]!.id } });
  void carer;

  await seedProgramme(ctx, members.map((m) => m.id));
}

/** A coordinator next to the admin, and an invitation still open for a new physiotherapist. */
async function seedTeam(db: Db, ctx: ServiceContext, projectId: number) {
  await createUser(db, { email: 'priya.shah@example.org', password: generatePassword(), role: 'coordinator', projectId, name: 'Priya Shah' });
  await createUser(db, { email: 'owen.hughes@example.org', password: generatePassword(), role: 'coordinator', projectId, name: 'Owen Hughes' });
  await inviteUser(ctx, { email: 'sam.lee@example.org', role: 'coordinator' });
}

async function seedProgramme(ctx: ServiceContext, memberIds: number[]) {
  const surgeryDate = await createObservationCode(ctx, { slug: 'surgery-date', display: 'Surgery date', type: 'date' });
  await createObservationCode(ctx, { slug: 'discharge-date', display: 'Discharge date', type: 'date' });
  const painScore = await createObservationCode(ctx, { slug: 'pain-score', display: 'Pain score (0-10)', type: 'number' });

  const prepare = await createArticle(ctx, {
    slug: 'preparing-for-knee-replacement',
    title: 'Preparing for your knee replacement',
    summary: 'What to do in the two weeks before your operation',
    status: 'published',
    body: [
      '## Two weeks before',
      '',
      '- If you smoke, try to stop: wounds heal faster without it.',
      '- Arrange for someone to **take you home** and stay with you the first night.',
      '- Move rugs and cables out of the way at home, and put the things you use every day at waist height.',
      '',
      '## The night before',
      '',
      'Do not eat after midnight. You may drink water until two hours before your operation.',
      '',
      'Questions? Call the orthopaedic ward on **0113 496 0210**, or read the [NHS guide to knee replacement](https://www.nhs.uk/conditions/knee-replacement/).',
    ].join('\n'),
  });
  const exercises = await createArticle(ctx, {
    slug: 'exercises-after-your-operation',
    title: 'Exercises after your operation',
    summary: 'Four exercises, three times a day, for the first six weeks',
    status: 'published',
    body: [
      '## Why these exercises matter',
      '',
      'Moving your new knee early stops it getting stiff and helps you walk without a frame sooner.',
      '',
      '1. **Ankle pumps**: point your feet up and down, 20 times.',
      '2. **Thigh squeezes**: press the back of your knee into the bed, hold for 5 seconds, 10 times.',
      '3. **Straight leg raises**: lift your leg a hand’s width, hold for 5 seconds, 10 times.',
      '4. **Knee bends**: slide your heel towards you as far as is comfortable, 10 times.',
      '',
      'Stop and call us if your calf becomes swollen, hot or painful.',
    ].join('\n'),
  });
  await createArticle(ctx, {
    slug: 'caring-for-your-wound',
    title: 'Caring for your wound',
    summary: 'Dressings, showering and signs of infection',
    status: 'draft',
    body: '## Keeping it dry\n\nKeep the dressing dry for the first five days. Draft: waiting for the ward sister to review.',
  });

  const clinic = await createSchedule(ctx, {
    display: 'Orthopaedic clinic, Dr. Jansen',
    timeZone: ZONE,
    slotMinutes: 30,
    availability: (['mon', 'tue', 'wed', 'thu', 'fri'] as const).flatMap((day) => [
      { day, start: '09:00', end: '12:00' },
      { day, start: '13:30', end: '16:30' },
    ]),
    exceptions: [{ date: isoDay(21), windows: [] }],
    minimumNoticeMinutes: 24 * 60,
    bufferMinutes: 10,
    active: true,
  });
  const physio = await createSchedule(ctx, {
    display: 'Physiotherapy phone line',
    timeZone: ZONE,
    slotMinutes: 15,
    availability: (['mon', 'wed', 'fri'] as const).map((day) => ({ day, start: '10:00', end: '15:00' })),
    exceptions: [],
    minimumNoticeMinutes: 60,
    bufferMinutes: 0,
    active: true,
  });

  const intakeItems = [
    { linkId: 'surgery-date', type: 'date' as const, text: 'When is your operation?', required: true, observationCodeId: surgeryDate.id },
    { linkId: 'smoker', type: 'boolean' as const, text: 'Do you smoke?', required: true },
    { linkId: 'per-day', type: 'integer' as const, text: 'How many cigarettes a day?', required: true, min: 1, max: 100, enableWhen: { linkId: 'smoker', operator: 'equals' as const, answer: true } },
    { linkId: 'mobility', type: 'choice' as const, text: 'How do you get around today?', options: [{ value: 'unaided', display: 'Without help' }, { value: 'stick', display: 'With a stick' }, { value: 'frame', display: 'With a frame' }] },
    { linkId: 'worries', type: 'text' as const, text: 'Is there anything you are worried about?' },
  ];
  const intake = await createQuestionnaire(ctx, {
    slug: 'before-your-operation',
    title: 'Before your operation',
    description: 'Takes about three minutes. Your answers help us plan your care.',
    status: 'active',
    items: intakeItems,
  });
  const recovery = await createQuestionnaire(ctx, {
    slug: 'recovery-check-in',
    title: 'Recovery check-in',
    description: 'How are you getting on? We read every answer.',
    status: 'active',
    items: [
      { linkId: 'pain', type: 'integer', text: 'How much pain do you have today, from 0 (none) to 10 (worst)?', required: true, min: 0, max: 10, observationCodeId: painScore.id },
      { linkId: 'walking', type: 'choice', text: 'How far can you walk?', required: true, options: [{ value: 'room', display: 'Around the room' }, { value: 'house', display: 'Around the house' }, { value: 'street', display: 'To the end of the street' }, { value: 'further', display: 'Further' }] },
      { linkId: 'swelling', type: 'boolean', text: 'Is your calf swollen, hot or painful?', required: true },
      { linkId: 'note', type: 'text', text: 'Anything else your physiotherapist should know?' },
    ],
  });

  const actions = [
    { key: 'intake-form', kind: 'questionnaire' as const, questionnaireId: intake.id, type: 'form', display: 'Tell us about your operation', description: 'Your operation date plans the rest of your care.', actorType: 'subject', start: { offset: 0, offsetUnit: 'd' as const }, end: { offset: 14, offsetUnit: 'd' as const }, reminders: [{ offset: 3, offsetUnit: 'd' as const, title: 'Please fill in your form', body: 'It takes three minutes and helps us plan your operation.' }] },
    { key: 'read-preparation', kind: 'message' as const, articleId: prepare.id, type: 'reading', display: 'Read: preparing for your operation', actorType: 'subject', inputKey: 'surgery', start: { offset: -14, offsetUnit: 'd' as const }, reminders: [] },
    { key: 'pre-op-consultation', kind: 'appointment' as const, scheduleId: clinic.id, type: 'consultation', display: 'Book your pre-operative assessment', description: 'About 30 minutes with the anaesthetist and a nurse.', actorType: 'subject', inputKey: 'surgery', start: { offset: -21, offsetUnit: 'd' as const }, end: { offset: 14, offsetUnit: 'd' as const }, reminders: [{ offset: 2, offsetUnit: 'd' as const, title: 'Book your assessment', medium: 'sms' as const }] },
    { key: 'pre-op-call', kind: 'task' as const, type: 'call', display: 'Pre-operative phone call', description: 'A nurse goes through the checklist with the patient.', actorType: 'nurse', inputKey: 'surgery', start: { offset: -7, offsetUnit: 'd' as const }, end: { offset: 4, offsetUnit: 'd' as const }, reminders: [] },
    { key: 'fasting', kind: 'task' as const, type: 'instruction', display: 'Stop eating from midnight', actorType: 'subject', inputKey: 'surgery', start: { offset: -6, offsetUnit: 'h' as const }, end: { offset: 6, offsetUnit: 'h' as const }, reminders: [{ offset: 0, offsetUnit: 's' as const, title: 'No food from now on', body: 'You may drink water until two hours before your operation.' }] },
    { key: 'exercises', kind: 'message' as const, articleId: exercises.id, type: 'reading', display: 'Start your exercises', actorType: 'subject', inputKey: 'surgery', start: { offset: 1, offsetUnit: 'd' as const }, reminders: [] },
    { key: 'wound-check', kind: 'task' as const, type: 'visit', display: 'Wound check at the GP practice', actorType: 'nurse', inputKey: 'surgery', start: { offset: 12, offsetUnit: 'd' as const }, end: { offset: 3, offsetUnit: 'd' as const }, reminders: [] },
    { key: 'recovery-check', kind: 'questionnaire' as const, questionnaireId: recovery.id, type: 'form', display: 'Recovery check-in', actorType: 'subject', inputKey: 'surgery', start: { offset: 2, offsetUnit: 'wk' as const }, end: { offset: 1, offsetUnit: 'wk' as const }, reminders: [{ offset: 1, offsetUnit: 'd' as const, title: 'How are you getting on?' }] },
    { key: 'physio-call', kind: 'appointment' as const, scheduleId: physio.id, type: 'call', display: 'Book a call with your physiotherapist', actorType: 'subject', inputKey: 'surgery', start: { offset: 3, offsetUnit: 'wk' as const }, end: { offset: 3, offsetUnit: 'wk' as const }, reminders: [] },
    { key: 'six-week-review', kind: 'task' as const, type: 'visit', display: 'Six-week review', actorType: 'subject', inputKey: 'surgery', start: { offset: 6, offsetUnit: 'wk' as const }, end: { offset: 2, offsetUnit: 'wk' as const }, reminders: [] },
  ];
  const knee = await createDefinition(ctx, { slug: 'knee-replacement', title: 'Knee replacement', inputs: [{ key: 'surgery', observationCodeId: surgeryDate.id }], actions });
  const [margaret, james, aisha, tomasz, linda, robert] = memberIds as [number, number, number, number, number, number];
  // Version 1 is in use from here on; the review after a year was added in version 2.
  const firstPlan = await createCareplan(ctx, { definitionId: knee.id, subjectId: robert });
  await updateDefinition(ctx, String(knee.id), {
    actions: [
      ...actions,
      { key: 'one-year-review', kind: 'task', type: 'visit', display: 'One-year review', actorType: 'subject', inputKey: 'surgery', start: { offset: 12, offsetUnit: 'mo' }, end: { offset: 1, offsetUnit: 'mo' }, reminders: [] },
    ],
  });
  await createDefinition(ctx, {
    slug: 'hip-replacement',
    title: 'Hip replacement',
    inputs: [{ key: 'surgery', observationCodeId: surgeryDate.id }],
    actions: actions.filter((a) => a.key !== 'wound-check').map((a) => (a.key === 'exercises' ? { ...a, display: 'Start your hip exercises' } : a)),
  });
  // The intake form got a question about stairs; answered version 1 stays as it was.
  await createResponse(ctx, { questionnaireId: intake.id, subjectId: robert, status: 'completed', answers: [{ linkId: 'surgery-date', value: isoDay(-70) }, { linkId: 'smoker', value: false }, { linkId: 'mobility', value: 'stick' }] });
  await updateQuestionnaire(ctx, String(intake.id), {
    items: [...intakeItems.slice(0, 4), { linkId: 'stairs', type: 'boolean', text: 'Do you have stairs at home?' }, intakeItems[4]!],
  });

  // Patients at each point of the pathway.
  const dated = async (subjectId: number, surgery: string) => {
    const plan = await createCareplan(ctx, { definitionId: knee.id, subjectId });
    await setParameter(ctx, { careplanId: plan.id, inputId: plan.parameters![0]!.inputId, observation: { value: surgery, observedAt: new Date().toISOString() } });
    return plan;
  };
  await setParameter(ctx, { careplanId: firstPlan.id, inputId: firstPlan.parameters![0]!.inputId, observation: { value: isoDay(-70), observedAt: new Date(Date.now() - 80 * DAY).toISOString() } });
  await updateCareplan(ctx, firstPlan.id, { status: 'completed' });
  await dated(margaret, isoDay(16));
  await dated(james, isoDay(5));
  await dated(aisha, isoDay(-18));
  await createCareplan(ctx, { definitionId: knee.id, subjectId: tomasz });
  const withdrawn = await createCareplan(ctx, { definitionId: knee.id, subjectId: linda, title: 'Knee replacement (left)' });
  await updateCareplan(ctx, withdrawn.id, { status: 'cancelled' });

  // Aisha filled in her recovery check-in; Margaret her intake form on paper, entered by the team.
  await createResponse(ctx, { questionnaireId: recovery.id, subjectId: aisha, status: 'completed', answers: [{ linkId: 'pain', value: 4 }, { linkId: 'walking', value: 'house' }, { linkId: 'swelling', value: false }, { linkId: 'note', value: 'Stairs are still hard.' }] });
  await createResponse(ctx, {
    questionnaireId: intake.id,
    subjectId: margaret,
    status: 'completed',
    answers: [{ linkId: 'surgery-date', value: isoDay(16) }, { linkId: 'smoker', value: false }, { linkId: 'mobility', value: 'stick' }, { linkId: 'stairs', value: true }, { linkId: 'worries', value: 'Getting up the stairs to my bedroom.' }],
  });

  // Bookings in the coming days, and a visit of last week, recorded and finished.
  const slots = await listSlots(ctx, clinic.id, isoDay(1), isoDay(12));
  const bookings: [number, string][] = [
    [margaret, 'Pre-operative assessment'],
    [james, 'Pre-operative assessment'],
    [tomasz, 'First consultation'],
  ];
  for (const [k, [subjectId, title]] of bookings.entries()) {
    const slot = slots[k * 5 + 2];
    if (slot) await createAppointment(ctx, { scheduleId: clinic.id, subjectId, start: slot.start, title });
  }
  const phone = await listSlots(ctx, physio.id, isoDay(1), isoDay(10));
  if (phone[3]) await createAppointment(ctx, { scheduleId: physio.id, subjectId: aisha, start: phone[3].start, title: 'Physiotherapy call' });
  const lastWeek = new Date(Date.now() - 6 * DAY);
  lastWeek.setUTCHours(10, 0, 0, 0);
  const visit = await createEncounter(ctx, { subjectId: aisha, status: 'in-progress', start: lastWeek.toISOString(), note: 'Post-operative review.' });
  await updateEncounter(ctx, visit.id, { status: 'finished', end: new Date(lastWeek.getTime() + 25 * 60_000).toISOString(), note: 'Wound healed; bends to 95 degrees. Walking with one stick.' });
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
      ` Carebase seeded project 1 (${DEMO_PROJECT})`,
      `   admin sign-in : ${r.adminEmail} / ${r.adminPassword}`,
      `   API key       : ${r.apiKey}`,
      line,
    ].join('\n'),
  );
}
