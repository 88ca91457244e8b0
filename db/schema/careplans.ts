import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { articles, questionnaires } from './content';
import { ACTIVITY_KINDS, ACTIVITY_STATUSES, CAREPLAN_STATUSES, OBSERVATION_TYPES } from './enums';
import { members } from './members';
import { projects, timestamps } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const observationCodes = pgTable(
  'observation_code',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    display: text('display').notNull(),
    type: text('type', { enum: OBSERVATION_TYPES }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('observation_code_project_slug_key').on(t.projectId, t.slug)],
);

export const observations = pgTable(
  'observation',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    observationCodeId: integer('observation_code_id')
      .notNull()
      .references(() => observationCodes.id, { onDelete: 'restrict' }),
    value: text('value').notNull(),
    observedAt: tz('observed_at').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('observation_project_idx').on(t.projectId, t.id),
    index('observation_subject_idx').on(t.subjectId, t.observationCodeId),
    index('observation_code_idx').on(t.observationCodeId),
  ],
);

export type ActionOffset = { offset: number; offsetUnit: 's' | 'min' | 'h' | 'd' | 'wk' | 'mo' | 'a' };
export type ActionReminder = ActionOffset & { topic?: string; medium?: string | string[]; title?: string; body?: string };
export type DefinitionAction = {
  key: string;
  kind?: (typeof ACTIVITY_KINDS)[number];
  type: string;
  display: string;
  description?: string;
  articleId?: number;
  questionnaireId?: number;
  scheduleId?: number;
  actorType: string;
  inputKey?: string;
  start: ActionOffset;
  end?: ActionOffset;
  reminders?: ActionReminder[];
};

/** A template; its content lives in versions. `latestVersion` is the one new care plans pin. */
export const careplanDefinitions = pgTable(
  'careplan_definition',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    latestVersion: integer('latest_version').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('careplan_definition_project_slug_key').on(t.projectId, t.slug)],
);

export const careplanDefinitionVersions = pgTable(
  'careplan_definition_version',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    definitionId: integer('definition_id')
      .notNull()
      .references(() => careplanDefinitions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    actions: jsonb('actions').$type<DefinitionAction[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('careplan_definition_version_key').on(t.definitionId, t.version)],
);

/** Inputs belong to one version; their ids are unique across versions (parameters name them). */
export const careplanDefinitionInputs = pgTable(
  'careplan_definition_input',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    versionId: integer('version_id')
      .notNull()
      .references(() => careplanDefinitionVersions.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    observationCodeId: integer('observation_code_id')
      .notNull()
      .references(() => observationCodes.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('careplan_definition_input_key').on(t.versionId, t.key), index('careplan_definition_input_code_idx').on(t.observationCodeId)],
);

export const careplans = pgTable(
  'careplan',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    definitionId: integer('definition_id')
      .notNull()
      .references(() => careplanDefinitions.id, { onDelete: 'restrict' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => careplanDefinitionVersions.id, { onDelete: 'restrict' }),
    version: integer('version').notNull(),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: text('status', { enum: CAREPLAN_STATUSES }).notNull().default('ongoing'),
    ...timestamps,
  },
  (t) => [
    index('careplan_project_idx').on(t.projectId, t.id),
    index('careplan_subject_idx').on(t.subjectId),
    index('careplan_definition_idx').on(t.definitionId, t.status),
    index('careplan_version_idx').on(t.versionId),
  ],
);

export const careplanParameters = pgTable(
  'careplan_parameter',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    careplanId: integer('careplan_id')
      .notNull()
      .references(() => careplans.id, { onDelete: 'cascade' }),
    inputId: integer('input_id')
      .notNull()
      .references(() => careplanDefinitionInputs.id, { onDelete: 'restrict' }),
    observationId: integer('observation_id').references(() => observations.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('careplan_parameter_input_key').on(t.careplanId, t.inputId), index('careplan_parameter_observation_idx').on(t.observationId)],
);


export const activities = pgTable(
  'activity',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    careplanId: integer('careplan_id')
      .notNull()
      .references(() => careplans.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id').notNull(),
    /** Null for custom activities (POST /activity). */
    actionKey: text('action_key'),
    /** The input whose date anchors it; null when anchored on the care plan's start. */
    inputId: integer('input_id'),
    kind: text('kind', { enum: ACTIVITY_KINDS }).notNull().default('task'),
    type: text('type').notNull(),
    display: text('display').notNull(),
    description: text('description'),
    articleId: integer('article_id').references(() => articles.id, { onDelete: 'set null' }),
    questionnaireId: integer('questionnaire_id').references(() => questionnaires.id, { onDelete: 'set null' }),
    /** The schedule an appointment activity is booked in (section 10). */
    scheduleId: integer('schedule_id'),
    /** The completed response that completed it (questionnaire kind). */
    questionnaireResponseId: integer('questionnaire_response_id'),
    /** The appointment whose booking completed it (appointment kind). */
    appointmentId: integer('appointment_id'),
    actorType: text('actor_type').notNull().default('subject'),
    status: text('status', { enum: ACTIVITY_STATUSES }).notNull().default('proposed'),
    activateAt: tz('activate_at').notNull(),
    endAt: tz('end_at'),
    remindAt: tz('remind_at'),
    reminders: jsonb('reminders').$type<ActionReminder[]>().notNull().default([]),
    completedAt: tz('completed_at'),
    /** Position of the pending reminder in `reminders` ordered by time; remindAt is its time. */
    reminderIndex: integer('reminder_index').notNull().default(0),
    /** The earliest of the pending transitions (activate, expire, remind); what the scheduler claims. */
    nextDueAt: tz('next_due_at'),
    /** Bumped by every firing; with the transition's kind and time it makes the transitionId. */
    transitionSeq: integer('transition_seq').notNull().default(0),
    /** Transitions a `handle` webhook took over (`kind@time`): they are not fired again. */
    handledTransitions: text('handled_transitions').array().notNull().default(sql`'{}'::text[]`),
    /** Held while a transition with synchronous webhooks runs outside a transaction. */
    leaseUntil: tz('lease_until'),
    /** Failed synchronous calls in a row for the pending transition (backs off the retry). */
    failures: integer('failures').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('activity_careplan_idx').on(t.careplanId, t.id),
    index('activity_project_idx').on(t.projectId, t.id),
    index('activity_subject_idx').on(t.subjectId),
    index('activity_due_idx').on(t.nextDueAt).where(sql`${t.nextDueAt} is not null`),
    index('activity_article_idx').on(t.articleId).where(sql`${t.articleId} is not null`),
    index('activity_questionnaire_idx').on(t.questionnaireId).where(sql`${t.questionnaireId} is not null`),
    // The console's overview (server/services/activities/overview): due soon and overdue by status and
    // start, recently expired by when it expired. Without them every load read the project's activities.
    index('activity_overview_idx').on(t.projectId, t.status, t.activateAt),
    index('activity_expired_idx').on(t.projectId, t.updatedAt).where(sql`${t.status} = 'expired'`),
  ],
);
