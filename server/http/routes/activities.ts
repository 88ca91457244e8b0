import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import { createActivity, deleteActivity, getActivity, listActivities, updateActivity } from '@/server/services/activities/activities';
import { getNotification, listNotifications, updateNotification } from '@/server/services/activities/notifications';
import { createActivityInput, listActivitiesQuery, listNotificationsQuery, notificationSchema, updateActivityInput, updateNotificationInput, activitySchema } from '@/server/services/activities/schemas';

const idParams = z.object({ id: idParam });

export const activityRoutes = [
  defineRoute({
    method: 'GET',
    path: '/activity',
    tag: 'Activities',
    summary: 'List activities',
    description: 'A member token sees only the member\u2019s own activities.',
    query: listActivitiesQuery,
    paginated: true,
    response: activitySchema,
    handler: (ctx, { query, page }) => listActivities(ctx, query, page),
  }),
  defineRoute({
    method: 'POST',
    path: '/activity',
    tag: 'Activities',
    summary: 'Create a custom activity on a care plan',
    description:
      'Proposed until `activateAt` passes, then scheduled; expires at `endAt`; `reminders` are offsets from `activateAt`. The care plan must be ongoing (409 otherwise). Emits `activity_create`.',
    body: createActivityInput,
    status: 201,
    response: activitySchema,
    location: (a: { id: number }) => `/activity/${a.id}`,
    handler: (ctx, { body }) => createActivity(ctx, body),
  }),
  defineRoute({ method: 'GET', path: '/activity/{id}', tag: 'Activities', summary: 'Get an activity', params: idParams, response: activitySchema, handler: (ctx, { params }) => getActivity(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/activity/{id}',
    tag: 'Activities',
    summary: 'Complete, cancel or reschedule an activity',
    description:
      'Only proposed and scheduled activities change (409 otherwise). A member token may only send `{status: "completed"}` for its own activities whose actorType is subject. Changing `activateAt` moves the pending reminder with it unless `remindAt` is given; the next due transition follows the new timestamps. Emits `activity_update`.',
    params: idParams,
    body: updateActivityInput,
    response: activitySchema,
    handler: (ctx, { params, body }) => updateActivity(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/activity/{id}',
    tag: 'Activities',
    summary: 'Delete an activity',
    description: 'Its notifications stay, with `activityId` null. Emits `activity_delete`.',
    params: idParams,
    status: 204,
    handler: (ctx, { params }) => deleteActivity(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/notification',
    tag: 'Notifications',
    summary: 'List notifications',
    description: 'A member token sees only its own notifications.',
    query: listNotificationsQuery,
    paginated: true,
    response: notificationSchema,
    handler: (ctx, { query, page }) => listNotifications(ctx, query, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/notification/{id}',
    tag: 'Notifications',
    summary: 'Get a notification',
    params: idParams,
    response: notificationSchema,
    handler: (ctx, { params }) => getNotification(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/notification/{id}',
    tag: 'Notifications',
    summary: 'Mark a notification read, or report it sent',
    description: '`{read: true}` (members on their own notifications, staff, integrations); `{status: "sent"}` for integrations delivering a pending notification.',
    params: idParams,
    body: updateNotificationInput,
    response: notificationSchema,
    handler: (ctx, { params, body }) => updateNotification(ctx, params.id, body),
  }),
];
