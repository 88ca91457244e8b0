import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { activities, observations } from './careplans';
import { questionnaires, questionnaireVersions } from './content';
import { RESPONSE_STATUSES } from './enums';
import { members } from './members';
import { projects, timestamps } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type AnswerRow = { linkId: string; value: unknown };

/** A member's answers to one version of a questionnaire. */
export const questionnaireResponses = pgTable(
  'questionnaire_response',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    questionnaireId: integer('questionnaire_id')
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'restrict' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => questionnaireVersions.id, { onDelete: 'restrict' }),
    questionnaireVersion: integer('questionnaire_version').notNull(),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    status: text('status', { enum: RESPONSE_STATUSES }).notNull(),
    answers: jsonb('answers').$type<AnswerRow[]>().notNull(),
    authoredAt: tz('authored_at').notNull(),
    ...timestamps,
  },
  (t) => [
    index('questionnaire_response_project_idx').on(t.projectId, t.id),
    index('questionnaire_response_questionnaire_idx').on(t.questionnaireId, t.id),
    index('questionnaire_response_version_idx').on(t.versionId),
    index('questionnaire_response_subject_idx').on(t.subjectId, t.id),
    index('questionnaire_response_activity_idx').on(t.activityId),
  ],
);

/**
 * The observation each mapped item of a response last made: an amended answer makes a new one, and the
 * care plan parameters that pointed at the old one move to it.
 */
export const responseObservations = pgTable(
  'response_observation',
  {
    responseId: integer('response_id')
      .notNull()
      .references(() => questionnaireResponses.id, { onDelete: 'cascade' }),
    linkId: text('link_id').notNull(),
    observationId: integer('observation_id')
      .notNull()
      .references(() => observations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.responseId, t.linkId] }), index('response_observation_observation_idx').on(t.observationId)],
);
