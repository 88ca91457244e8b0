import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import type { EventName } from '@/server/core/event-names';
import { activitySchema, createActivityInput, notificationSchema, reminderSchema, updateActivityInput } from '@/server/services/activities/schemas';
import { articleSchema, createArticleInput } from '@/server/services/articles/schemas';
import {
  careplanSchema,
  createCareplanInput,
  createDefinitionInput,
  definitionSchema,
  updateCareplanInput,
  updateDefinitionInput,
} from '@/server/services/careplans/schemas';
import { createMemberInput, memberSchema, updateMemberInput } from '@/server/services/members/schemas';
import {
  createQuestionnaireInput,
  createResponseInput,
  questionnaireSchema,
  responseSchema,
  updateQuestionnaireInput,
  updateResponseInput,
} from '@/server/services/questionnaires/schemas';
import {
  appointmentSchema,
  createAppointmentInput,
  createEncounterInput,
  createScheduleInput,
  encounterSchema,
  scheduleSchema,
  updateAppointmentInput,
  updateEncounterInput,
  updateScheduleInput,
} from '@/server/services/scheduling/schemas';
import { EXAMPLES } from './examples';

/**
 * The webhook payload catalogue (CONTRACT 11): for each of the 27 events, what `params` and
 * `responseData` hold, as zod schemas (the OpenAPI document's `webhooks` section is generated from them,
 * and tests check every recorded event against them) and a realistic example (what "Send test" sends).
 */
export type CatalogueEntry = {
  summary: string;
  description: string;
  params: z.ZodType;
  responseData: z.ZodType;
  example: { params: Record<string, unknown>; responseData: unknown };
};

const withId = <S extends z.ZodObject>(schema: S) => schema.safeExtend({ id: idSchema });
const byId = z.object({ id: idSchema }).strict();

/** What another operation changed about an activity, recorded after-only as if it were a PATCH (CONTRACT 9). */
const activityConsequence = z
  .object({
    id: idSchema,
    status: z.enum(['scheduled', 'expired', 'completed', 'cancelled']).optional(),
    completedAt: z.string().nullable().optional(),
    questionnaireResponseId: idSchema.optional(),
    appointmentId: idSchema.nullable().optional(),
    activateAt: z.string().optional(),
    endAt: z.string().nullable().optional(),
    remindAt: z.string().nullable().optional(),
  })
  .strict();

const transition = (status: 'scheduled' | 'expired') =>
  z.object({ id: idSchema, transitionId: z.uuid(), activity: activitySchema.meta({ description: 'The activity before the transition' }), status: z.literal(status) }).strict();

const entries: Record<EventName, Omit<CatalogueEntry, 'example'>> = {
  account_link: {
    summary: 'Someone signed in through an identity provider for the first time',
    description:
      'With strategy `handle` the answer decides whom the account belongs to: `{memberId}` or `{userId}` of the project. Without one, Carebase links the member whose email equals `mapped.email`, or creates a member from `mapped`; `after` webhooks get the result.',
    params: z
      .object({
        sub: z.string(),
        providerId: idSchema,
        userinfo: z.record(z.string(), z.unknown()),
        mapping: z.record(z.string(), z.string()),
        mapped: z.record(z.string(), z.unknown()),
      })
      .strict(),
    responseData: z.union([z.object({ memberId: idSchema }).strict(), z.object({ userId: idSchema }).strict()]),
  },
  activity_create: {
    summary: 'An activity was created',
    description: 'By `POST /activity` (params: the body), or by a care plan whose reference date arrived (params: `{careplanId, actionKey}`).',
    params: z.union([createActivityInput, z.object({ careplanId: idSchema, actionKey: z.string().nullable() }).strict()]),
    responseData: activitySchema,
  },
  activity_delete: { summary: 'An activity was deleted', description: 'params: `{id}`; responseData: the deleted activity.', params: byId, responseData: activitySchema },
  activity_update: {
    summary: 'An activity changed',
    description:
      'By `PATCH /activity/{id}` (params: `{id, ...changes}`), or as the consequence of another operation: a completed response or a booking completes it, a cancelled booking reopens it, a moved reference date moves it, a finished care plan cancels it.',
    params: z.union([withId(updateActivityInput), activityConsequence]),
    responseData: activitySchema,
  },
  activity_transition_scheduled: {
    summary: "A proposed activity's activateAt passed",
    description: 'Default: the activity becomes scheduled. A `handle` webhook replaces the default (the integration applies it with `PATCH /activity/{id}`); `before` can hold it back.',
    params: transition('scheduled'),
    responseData: activitySchema,
  },
  activity_transition_expired: {
    summary: "An open activity's endAt passed",
    description: 'Default: the activity becomes expired. A `handle` webhook replaces the default.',
    params: transition('expired'),
    responseData: activitySchema,
  },
  activity_reminder: {
    summary: "A scheduled activity's reminder is due",
    description:
      "Default: a notification titled `<type>: <display>` for the care plan's subject (suppressed when `actorType` is not `subject`), and `remindAt` moves to the next reminder. A `handle` webhook replaces the default.",
    params: z.object({ id: idSchema, transitionId: z.uuid(), activity: activitySchema, reminder: reminderSchema }).strict(),
    responseData: z.object({ activity: activitySchema, notification: notificationSchema }).strict(),
  },
  appointment_create: { summary: 'An appointment was booked', description: 'params: the body of `POST /appointment`.', params: createAppointmentInput, responseData: appointmentSchema },
  appointment_update: {
    summary: 'An appointment changed',
    description: 'Rescheduled, renamed, cancelled or marked no-show through `PATCH /appointment/{id}`, or fulfilled by a finished encounter (params `{id, status: "fulfilled"}`).',
    params: withId(updateAppointmentInput).or(z.object({ id: idSchema, status: z.literal('fulfilled') }).strict()),
    responseData: appointmentSchema,
  },
  article_create: { summary: 'An article was written', description: 'params: the body of `POST /article`.', params: createArticleInput, responseData: articleSchema },
  careplan_create: {
    summary: 'A member was enrolled in a care plan',
    description: 'Integrations use it to fill known reference dates through `POST /careplan-parameter`. responseData has the empty parameters and the activities that need no date.',
    params: createCareplanInput,
    responseData: careplanSchema,
  },
  careplan_delete: { summary: 'A care plan was deleted', description: 'With its parameters and activities.', params: byId, responseData: careplanSchema },
  careplan_update: {
    summary: 'A care plan changed',
    description: 'Renamed, or completed or cancelled (its open activities are cancelled with it).',
    params: withId(updateCareplanInput),
    responseData: careplanSchema,
  },
  careplan_definition_create: { summary: 'A template was created', description: 'Version 1.', params: createDefinitionInput, responseData: definitionSchema },
  careplan_definition_delete: { summary: 'A template was deleted', description: 'With its finished care plans.', params: byId, responseData: definitionSchema },
  careplan_definition_update: {
    summary: 'A template was saved',
    description: 'Edited in place while no care plan uses the latest version, else saved as version+1 (responseData.version tells).',
    params: withId(updateDefinitionInput),
    responseData: definitionSchema,
  },
  encounter_create: { summary: 'A visit started or was planned', description: 'params: the body of `POST /encounter`.', params: createEncounterInput, responseData: encounterSchema },
  encounter_update: {
    summary: 'A visit changed',
    description: 'Finishing it fulfils its appointment (an `appointment_update` follows in the same transaction).',
    params: withId(updateEncounterInput),
    responseData: encounterSchema,
  },
  member_create: { summary: 'A member was added', description: 'params: the body of `POST /member`.', params: createMemberInput, responseData: memberSchema },
  member_delete: { summary: 'A member was deleted', description: 'With their records, tokens and care plans.', params: byId, responseData: memberSchema },
  member_update: { summary: 'A member changed', description: 'params: `{id, ...changes}`.', params: withId(updateMemberInput), responseData: memberSchema },
  questionnaire_create: { summary: 'A questionnaire was created', description: 'Version 1.', params: createQuestionnaireInput, responseData: questionnaireSchema },
  questionnaire_update: {
    summary: 'A questionnaire was saved',
    description: 'Edited in place while no response uses the latest version, else saved as version+1; a change of status alone never makes a version.',
    params: withId(updateQuestionnaireInput),
    responseData: questionnaireSchema,
  },
  questionnaire_response_create: {
    summary: 'A questionnaire was answered',
    description: 'A completed response completes its activity and feeds mapped answers into the subject\'s care plans.',
    params: createResponseInput,
    responseData: responseSchema,
  },
  questionnaire_response_update: {
    summary: 'A response changed',
    description: 'A draft saved or completed, or a completed response amended.',
    params: withId(updateResponseInput),
    responseData: responseSchema,
  },
  schedule_create: { summary: 'A schedule was created', description: 'params: the body of `POST /schedule`, with its defaults.', params: createScheduleInput, responseData: scheduleSchema },
  schedule_update: { summary: 'A schedule changed', description: 'params: `{id, ...changes}`.', params: withId(updateScheduleInput), responseData: scheduleSchema },
};

export const EVENT_CATALOGUE: Record<EventName, CatalogueEntry> = Object.fromEntries(
  Object.entries(entries).map(([name, entry]) => [name, { ...entry, example: EXAMPLES[name as EventName] }]),
) as Record<EventName, CatalogueEntry>;

/** The body a webhook receives for an event: what "Send test" sends, with the project's id. */
export function exampleBody(event: EventName, projectId: number) {
  const { params, responseData } = EVENT_CATALOGUE[event].example;
  return { event, projectId, params, responseData };
}
