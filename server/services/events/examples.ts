import type { EventName } from '@/server/core/event-names';

/**
 * A realistic example of each event's `params` and `responseData` (CONTRACT 11): a knee replacement
 * programme in which Ada Lovelace is enrolled. "Send test" sends these; tests check each against the
 * catalogue's schemas, so they stay true to what Carebase sends.
 */
const at = (iso: string) => new Date(iso).toISOString();
const T = {
  created: at('2026-03-02T08:15:00Z'),
  updated: at('2026-03-02T09:40:12Z'),
  surgery: at('2026-03-16T00:00:00Z'),
};

const member = {
  id: 42,
  role: 'user',
  name: 'Ada Lovelace',
  email: 'ada.lovelace@example.org',
  externalId: 'crm-1042',
  meta: { preferredLanguage: 'en' },
  timeZone: 'Europe/London',
  createdAt: T.created,
  updatedAt: T.created,
};

const reminder = { offset: 1, offsetUnit: 'd', title: 'Your pre-op call is tomorrow', body: 'The nurse will call you between 9:00 and 12:00.', medium: 'sms' } as const;

const activity = {
  id: 311,
  careplanId: 77,
  subjectId: 42,
  actionKey: 'pre-op-call',
  kind: 'task',
  type: 'call',
  display: 'Pre-operative phone call',
  description: 'A nurse goes through the preparation checklist with you.',
  articleId: null,
  questionnaireId: null,
  scheduleId: null,
  questionnaireResponseId: null,
  appointmentId: null,
  actorType: 'subject',
  status: 'proposed',
  activateAt: at('2026-03-09T09:00:00Z'),
  endAt: at('2026-03-13T17:00:00Z'),
  remindAt: at('2026-03-10T09:00:00Z'),
  reminders: [reminder],
  completedAt: null,
  createdAt: T.created,
  updatedAt: T.created,
};
const scheduledActivity = { ...activity, status: 'scheduled', updatedAt: at('2026-03-09T09:00:01Z') };

const actions = [
  {
    key: 'pre-op-call',
    kind: 'task',
    type: 'call',
    display: 'Pre-operative phone call',
    description: 'A nurse goes through the preparation checklist with you.',
    actorType: 'subject',
    inputKey: 'surgery',
    start: { offset: -7, offsetUnit: 'd' },
    end: { offset: 4, offsetUnit: 'd' },
    reminders: [reminder],
  },
  {
    key: 'knee-exercises',
    kind: 'message',
    articleId: 5,
    type: 'read',
    display: 'Exercises before your operation',
    actorType: 'subject',
    inputKey: 'surgery',
    start: { offset: -14, offsetUnit: 'd' },
    reminders: [],
  },
  {
    key: 'follow-up',
    kind: 'appointment',
    scheduleId: 3,
    type: 'visit',
    display: 'Follow-up consultation',
    actorType: 'subject',
    inputKey: 'surgery',
    start: { offset: 6, offsetUnit: 'wk' },
    end: { offset: 2, offsetUnit: 'wk' },
    reminders: [],
  },
];

const definition = {
  id: 12,
  slug: 'knee-replacement',
  title: 'Knee replacement',
  version: 3,
  inputs: [{ id: 31, key: 'surgery', observationCodeId: 4 }],
  actions,
  createdAt: at('2026-01-12T10:00:00Z'),
  updatedAt: T.updated,
};

const careplan = {
  id: 77,
  definitionId: 12,
  subjectId: 42,
  title: 'Knee replacement',
  version: 3,
  slug: 'knee-replacement',
  status: 'ongoing',
  createdAt: T.created,
  updatedAt: T.created,
};

const article = {
  id: 5,
  slug: 'exercises-before-surgery',
  title: 'Exercises before your operation',
  summary: 'Four exercises that make recovery faster',
  body: '## Why exercise now\n\nStrong thigh muscles help you walk sooner after the operation.\n\n1. Straight leg raises, 10 times\n2. Knee bends, 10 times',
  status: 'published',
  publishedAt: T.created,
  createdAt: T.created,
  updatedAt: T.created,
};

const items = [
  { linkId: 'surgery-date', text: 'When is your operation?', type: 'date', required: true, observationCodeId: 4 },
  { linkId: 'pain', text: 'How much pain do you have today (0-10)?', type: 'integer', required: true, min: 0, max: 10 },
  { linkId: 'stairs', text: 'Can you climb stairs?', type: 'choice', options: [{ value: 'yes', display: 'Yes' }, { value: 'with-help', display: 'With help' }, { value: 'no', display: 'No' }] },
];
const questionnaire = {
  id: 8,
  slug: 'pre-op-intake',
  title: 'Before your operation',
  description: 'Takes about three minutes.',
  status: 'active',
  version: 2,
  items,
  createdAt: at('2026-01-20T11:00:00Z'),
  updatedAt: T.updated,
};
const answers = [
  { linkId: 'surgery-date', value: '2026-03-16' },
  { linkId: 'pain', value: 4 },
  { linkId: 'stairs', value: 'with-help' },
];
const response = {
  id: 901,
  questionnaireId: 8,
  questionnaireVersion: 2,
  subjectId: 42,
  activityId: 312,
  status: 'completed',
  answers,
  authoredAt: T.updated,
  createdAt: T.updated,
  updatedAt: T.updated,
};

const availability = ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '12:30' }));
const schedule = {
  id: 3,
  display: 'Orthopaedic clinic, room 2',
  timeZone: 'Europe/London',
  slotMinutes: 30,
  availability,
  exceptions: [{ date: '2026-04-06', windows: [] }],
  minimumNoticeMinutes: 1440,
  bufferMinutes: 10,
  active: true,
  createdAt: at('2026-01-05T08:00:00Z'),
  updatedAt: at('2026-01-05T08:00:00Z'),
};

const appointment = {
  id: 58,
  scheduleId: 3,
  subjectId: 42,
  activityId: 313,
  title: 'Follow-up consultation',
  note: null,
  start: at('2026-04-27T09:30:00Z'),
  end: at('2026-04-27T10:00:00Z'),
  status: 'booked',
  createdAt: T.updated,
  updatedAt: T.updated,
};

const encounter = {
  id: 19,
  subjectId: 42,
  appointmentId: 58,
  status: 'in-progress',
  start: at('2026-04-27T09:32:00Z'),
  end: null,
  note: null,
  createdAt: at('2026-04-27T09:32:00Z'),
  updatedAt: at('2026-04-27T09:32:00Z'),
};

export const EXAMPLES: Record<EventName, { params: Record<string, unknown>; responseData: unknown }> = {
  account_link: {
    params: {
      sub: '248289761001',
      providerId: 2,
      userinfo: { sub: '248289761001', email: 'ada.lovelace@example.org', email_verified: true, name: 'Ada Lovelace' },
      mapping: { name: 'name', email: 'email' },
      mapped: { name: 'Ada Lovelace', email: 'ada.lovelace@example.org' },
    },
    responseData: { memberId: 42 },
  },
  activity_create: { params: { careplanId: 77, actionKey: 'pre-op-call' }, responseData: activity },
  activity_delete: { params: { id: 311 }, responseData: activity },
  activity_update: {
    params: { id: 311, status: 'completed' },
    responseData: { ...scheduledActivity, status: 'completed', remindAt: null, completedAt: at('2026-03-10T10:12:00Z'), updatedAt: at('2026-03-10T10:12:00Z') },
  },
  activity_transition_scheduled: {
    params: { id: 311, transitionId: '3f2b8e0c-5d1a-5c47-9e2f-0b7d4c1a6e58', activity, status: 'scheduled' },
    responseData: scheduledActivity,
  },
  activity_transition_expired: {
    params: { id: 311, transitionId: '9a4c7d21-0e3b-5f86-a1c9-6d2e8b4f0a73', activity: { ...scheduledActivity, remindAt: null }, status: 'expired' },
    responseData: { ...scheduledActivity, remindAt: null, status: 'expired', updatedAt: at('2026-03-13T17:00:01Z') },
  },
  activity_reminder: {
    params: { id: 311, transitionId: 'c81d4e2a-7b3f-5a90-8e6d-2f1c9b0a4d37', activity: scheduledActivity, reminder },
    responseData: {
      activity: { ...scheduledActivity, remindAt: null, updatedAt: at('2026-03-10T09:00:01Z') },
      notification: {
        id: 2051,
        memberId: 42,
        activityId: 311,
        title: 'call: Pre-operative phone call',
        body: reminder.body,
        topic: null,
        medium: 'sms',
        status: 'pending',
        createdAt: at('2026-03-10T09:00:01Z'),
        readAt: null,
      },
    },
  },
  appointment_create: { params: { scheduleId: 3, subjectId: 42, start: appointment.start, activityId: 313, title: 'Follow-up consultation' }, responseData: appointment },
  appointment_update: {
    params: { id: 58, start: at('2026-04-28T10:00:00Z') },
    responseData: { ...appointment, start: at('2026-04-28T10:00:00Z'), end: at('2026-04-28T10:30:00Z'), updatedAt: at('2026-04-20T14:05:00Z') },
  },
  article_create: {
    params: { slug: article.slug, title: article.title, summary: article.summary, body: article.body, status: 'published' },
    responseData: article,
  },
  careplan_create: {
    params: { definitionId: 12, subjectId: 42 },
    responseData: { ...careplan, parameters: [{ id: 140, careplanId: 77, inputId: 31, observationId: null }], activities: [] },
  },
  careplan_delete: { params: { id: 77 }, responseData: careplan },
  careplan_update: { params: { id: 77, status: 'completed' }, responseData: { ...careplan, status: 'completed', updatedAt: at('2026-05-11T16:00:00Z') } },
  careplan_definition_create: {
    params: { slug: 'knee-replacement', title: 'Knee replacement', inputs: [{ key: 'surgery', observationCodeId: 4 }], actions },
    responseData: { ...definition, version: 1, inputs: [{ id: 29, key: 'surgery', observationCodeId: 4 }] },
  },
  careplan_definition_delete: { params: { id: 12 }, responseData: definition },
  careplan_definition_update: {
    params: { id: 12, title: 'Knee replacement', actions },
    responseData: definition,
  },
  encounter_create: { params: { subjectId: 42, appointmentId: 58, status: 'in-progress' }, responseData: encounter },
  encounter_update: {
    params: { id: 19, status: 'finished', note: 'Wound healed well; walking without crutches.' },
    responseData: { ...encounter, status: 'finished', end: at('2026-04-27T09:55:00Z'), note: 'Wound healed well; walking without crutches.', updatedAt: at('2026-04-27T09:55:00Z') },
  },
  member_create: {
    params: { name: member.name, email: member.email, externalId: member.externalId, meta: member.meta, timeZone: member.timeZone },
    responseData: member,
  },
  member_delete: { params: { id: 42 }, responseData: member },
  member_update: { params: { id: 42, email: 'ada@lovelace.example.org' }, responseData: { ...member, email: 'ada@lovelace.example.org', updatedAt: T.updated } },
  questionnaire_create: {
    params: { slug: questionnaire.slug, title: questionnaire.title, description: questionnaire.description, status: 'active', items },
    responseData: { ...questionnaire, version: 1 },
  },
  questionnaire_update: { params: { id: 8, items }, responseData: questionnaire },
  questionnaire_response_create: {
    params: { questionnaireId: 8, subjectId: 42, activityId: 312, status: 'completed', answers },
    responseData: response,
  },
  questionnaire_response_update: {
    params: { id: 901, answers: [{ linkId: 'surgery-date', value: '2026-03-23' }, ...answers.slice(1)] },
    responseData: { ...response, status: 'amended', answers: [{ linkId: 'surgery-date', value: '2026-03-23' }, ...answers.slice(1)], authoredAt: at('2026-03-04T18:20:00Z'), updatedAt: at('2026-03-04T18:20:00Z') },
  },
  schedule_create: {
    params: { display: schedule.display, timeZone: schedule.timeZone, slotMinutes: 30, availability, exceptions: schedule.exceptions, minimumNoticeMinutes: 1440, bufferMinutes: 10, active: true },
    responseData: schedule,
  },
  schedule_update: { params: { id: 3, bufferMinutes: 15 }, responseData: { ...schedule, bufferMinutes: 15, updatedAt: at('2026-02-01T12:00:00Z') } },
};
