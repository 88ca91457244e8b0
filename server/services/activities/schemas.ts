import { z } from 'zod';
import { NOTIFICATION_STATUSES } from '@/db/schema';
import { idSchema, timestampSchema } from '@/server/http/define-route';
import { activitySchema, reminderSchema } from '@/server/services/careplans/schemas';

const instant = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });
const text = (max: number) => z.string().trim().min(1).max(max);

export const createActivityInput = z
  .object({
    careplanId: idSchema,
    type: text(100),
    display: text(200),
    actorType: text(100).default('subject'),
    activateAt: instant,
    endAt: instant.nullable().optional(),
    reminders: z.array(reminderSchema).max(20).default([]),
  })
  .strict()
  .meta({ id: 'ActivityCreate', description: 'A custom activity; reminders are offsets from activateAt' });
export type CreateActivityInput = z.infer<typeof createActivityInput>;

export const updateActivityInput = z
  .object({
    status: z.enum(['scheduled', 'expired', 'completed', 'cancelled']).meta({
      description: 'completed or cancelled ends an open activity; scheduled (from proposed) and expired let a handle webhook apply a transition itself',
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
  careplanId: z.coerce.number().int().positive().optional(),
  subjectId: z.coerce.number().int().positive().optional(),
  status: activitySchema.shape.status.optional(),
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
  memberId: z.coerce.number().int().positive().optional(),
  activityId: z.coerce.number().int().positive().optional(),
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
