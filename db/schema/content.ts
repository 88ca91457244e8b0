import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ARTICLE_STATUSES, QUESTIONNAIRE_STATUSES } from './enums';
import { projects, timestamps } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Something members read: Markdown, stored exactly as sent (rendering makes it safe). */
export const articles = pgTable(
  'article',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary'),
    body: text('body').notNull(),
    status: text('status', { enum: ARTICLE_STATUSES }).notNull().default('draft'),
    publishedAt: tz('published_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('article_project_slug_key').on(t.projectId, t.slug), index('article_project_status_idx').on(t.projectId, t.status, t.id)],
);

/** An item as stored in a version (the API's QuestionnaireItem). */
export type QuestionnaireItemRow = {
  linkId: string;
  text: string;
  type: string;
  required?: boolean;
  repeats?: boolean;
  options?: { value: string; display: string }[];
  min?: number;
  max?: number;
  enableWhen?: { linkId: string; operator: 'exists' | 'equals'; answer?: string | number | boolean };
  observationCodeId?: number;
};

/** A questionnaire; its content lives in versions, like a care plan definition's. */
export const questionnaires = pgTable(
  'questionnaire',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    status: text('status', { enum: QUESTIONNAIRE_STATUSES }).notNull().default('active'),
    latestVersion: integer('latest_version').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('questionnaire_project_slug_key').on(t.projectId, t.slug), index('questionnaire_project_status_idx').on(t.projectId, t.status, t.id)],
);

export const questionnaireVersions = pgTable(
  'questionnaire_version',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    questionnaireId: integer('questionnaire_id')
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    items: jsonb('items').$type<QuestionnaireItemRow[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('questionnaire_version_key').on(t.questionnaireId, t.version)],
);
