import { z } from 'zod';
import { ACTIVITY_KINDS, ACTIVITY_STATUSES, NOTIFICATION_STATUSES } from '@/db/schema/enums';

export { ACTIVITY_KINDS, ACTIVITY_STATUSES, NOTIFICATION_STATUSES };
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
import { idSchema, idFilter } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';
import { OFFSET_UNITS } from '@/server/core/offsets';

const MEDIA = ['email', 'sms', 'firebase', 'expo'] as const;

export const reminderSchema = z
  .object({
    offset: z.number().int().min(0).max(100_000),
    offsetUnit: z.enum(OFFSET_UNITS),
    topic: z.string().max(200).optional(),
    medium: z.union([z.enum(MEDIA), z.array(z.enum(MEDIA)).max(4)]).optional(),
    title: z.string().max(200).optional(),
    body: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: 'Reminder' });

/**
 * What an action or activity asks of its actor (CONTRACT 9), with the reference field each kind may
 * carry. The same fields on template actions and on custom activities.
 */
export const kindFields = {
  kind: z.enum(ACTIVITY_KINDS).default('task').meta({ description: 'task (default), message, questionnaire or appointment' }),
  description: z.string().max(2000).optional().meta({ description: 'Instructions shown with it' }),
  articleId: idSchema.optional().meta({ description: 'message: the article to read' }),
  questionnaireId: idSchema.optional().meta({ description: 'questionnaire (required): the form to fill in' }),
  scheduleId: idSchema.optional().meta({ description: 'appointment: the schedule to book in' }),
};

/** The reference field each kind may carry; questionnaire activities need theirs. */
export const KIND_REFERENCE = { task: undefined, message: 'articleId', questionnaire: 'questionnaireId', appointment: 'scheduleId' } as const;
const REFERENCES = ['articleId', 'questionnaireId', 'scheduleId'] as const;
type KindValue = { kind: ActivityKind; articleId?: number; questionnaireId?: number; scheduleId?: number };

/** The per-kind rules, each at its field: a reference of another kind, or a questionnaire without its form. */
export function kindProblems(value: KindValue): { field: string; message: string }[] {
  const own = KIND_REFERENCE[value.kind];
  const problems = REFERENCES.filter((f) => f !== own && value[f] !== undefined).map((field) => ({
    field,
    message: `${field} belongs to ${Object.entries(KIND_REFERENCE).find(([, f]) => f === field)![0]} activities, not ${value.kind}`,
  }));
  if (value.kind === 'questionnaire' && value.questionnaireId === undefined) problems.push({ field: 'questionnaireId', message: 'A questionnaire activity names its questionnaire' });
  return problems;
}

/** kindProblems as zod issues, for schemas that carry the kind fields (at `prefix.<field>`). */
export function addKindIssues(value: KindValue, ctx: z.RefinementCtx, prefix: (string | number)[] = []) {
  for (const p of kindProblems(value)) ctx.addIssue({ code: 'custom', path: [...prefix, p.field], message: p.message });
}

export const activitySchema = z
  .object({
    id: idSchema,
    careplanId: idSchema,
    subjectId: idSchema,
    actionKey: z.string().nullable(),
    kind: z.enum(ACTIVITY_KINDS),
    type: z.string(),
    display: z.string(),
    description: z.string().nullable(),
    articleId: idSchema.nullable(),
    questionnaireId: idSchema.nullable(),
    scheduleId: idSchema.nullable(),
    questionnaireResponseId: idSchema.nullable().meta({ description: 'The completed response that completed it' }),
    appointmentId: idSchema.nullable().meta({ description: 'The appointment whose booking completed it' }),
    actorType: z.string(),
    status: z.enum(ACTIVITY_STATUSES),
    activateAt: timestampSchema,
    endAt: timestampSchema.nullable(),
    remindAt: timestampSchema.nullable(),
    reminders: z.array(reminderSchema),
    completedAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Activity' });
export type ActivityDto = z.infer<typeof activitySchema>;

const instant = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });
const text = (max: number) => z.string().trim().min(1).max(max);

export const createActivityInput = z
  .object({
    careplanId: idSchema,
    ...kindFields,
    type: text(100),
    display: text(200),
    actorType: text(100).default('subject'),
    activateAt: instant,
    endAt: instant.nullable().optional(),
    reminders: z.array(reminderSchema).max(20).default([]),
  })
  .strict()
  .superRefine((v, ctx) => addKindIssues(v, ctx))
  .meta({ id: 'ActivityCreate', description: 'A custom activity; reminders are offsets from activateAt' });
export type CreateActivityInput = z.infer<typeof createActivityInput>;

export const updateActivityInput = z
  .object({
    status: z.enum(['scheduled', 'expired', 'completed', 'cancelled']).meta({
      description:
        'completed or cancelled ends an open activity (questionnaire and appointment activities are completed by their response or booking: 409); scheduled (from proposed) and expired let a handle webhook apply a transition itself',
    }),
    type: text(100),
    display: text(200),
    activateAt: instant,
    endAt: instant.nullable(),
    remindAt: instant.nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .meta({
    id: 'ActivityUpdate',
    description:
      'Completes, cancels, schedules or expires an open activity, or changes its timestamps (the pending reminder moves with activateAt unless remindAt is given; the next due transition follows).',
  });
export type UpdateActivityInput = z.infer<typeof updateActivityInput>;

export const listActivitiesQuery = z.object({
  careplanId: idFilter,
  subjectId: idFilter,
  status: activitySchema.shape.status.optional(),
  kind: z.enum(ACTIVITY_KINDS).optional(),
});

export const notificationSchema = z
  .object({
    id: idSchema,
    memberId: idSchema,
    activityId: idSchema.nullable(),
    title: z.string(),
    body: z.string().nullable(),
    topic: z.string().nullable(),
    medium: z.union([z.string(), z.array(z.string())]).nullable(),
    status: z.enum(NOTIFICATION_STATUSES),
    createdAt: timestampSchema,
    readAt: timestampSchema.nullable(),
  })
  .meta({ id: 'Notification' });
export type NotificationDto = z.infer<typeof notificationSchema>;

export const listNotificationsQuery = z.object({
  memberId: idFilter,
  activityId: idFilter,
});

export const updateNotificationInput = z
  .object({
    read: z.boolean().meta({ description: 'true sets readAt (the first time), false clears it' }),
    status: z.literal('sent').meta({ description: 'Integrations report a pending notification as sent through its medium' }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give read or status' })
  .meta({ id: 'NotificationUpdate' });
export type UpdateNotificationInput = z.infer<typeof updateNotificationInput>;
