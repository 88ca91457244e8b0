import { z } from 'zod';
import { idParam } from '@/server/core/ids';
import { defineRoute } from '@/server/http/define-route';
import { createAppointment, getAppointment, listAppointments, updateAppointment } from '@/server/services/scheduling/appointments';
import { createEncounter, getEncounter, listEncounters, updateEncounter } from '@/server/services/scheduling/encounters';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, listSlots, updateSchedule } from '@/server/services/scheduling/schedules';
import {
  appointmentSchema,
  createAppointmentInput,
  createEncounterInput,
  createScheduleInput,
  encounterSchema,
  listAppointmentsQuery,
  listEncountersQuery,
  listSchedulesQuery,
  scheduleSchema,
  slotQuery,
  slotSchema,
  updateAppointmentInput,
  updateEncounterInput,
  updateScheduleInput,
} from '@/server/services/scheduling/schemas';

const idParams = z.object({ id: idParam });

export const scheduleRoutes = [
  defineRoute({
    method: 'POST',
    path: '/schedule',
    tag: 'Scheduling',
    summary: 'Create a schedule',
    description: 'Weekly availability in local times of `timeZone` (default: the project\u2019s), date exceptions, slot length, minimum notice, buffer. Emits `schedule_create`.',
    body: createScheduleInput,
    response: scheduleSchema,
    status: 201,
    location: (s: { id: number }) => `/schedule/${s.id}`,
    handler: (ctx, { body }) => createSchedule(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/schedule',
    tag: 'Scheduling',
    summary: 'List schedules',
    description: 'A member token sees active schedules only.',
    query: listSchedulesQuery,
    paginated: true,
    response: scheduleSchema,
    handler: (ctx, { query, page }) => listSchedules(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/schedule/{id}', tag: 'Scheduling', summary: 'Get a schedule', params: idParams, response: scheduleSchema, handler: (ctx, { params }) => getSchedule(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/schedule/{id}',
    tag: 'Scheduling',
    summary: 'Update a schedule',
    description: 'Booked appointments stay as they are. Emits `schedule_update`.',
    params: idParams,
    body: updateScheduleInput,
    response: scheduleSchema,
    handler: (ctx, { params, body }) => updateSchedule(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/schedule/{id}',
    tag: 'Scheduling',
    summary: 'Delete a schedule',
    description: 'Admins only; 409 while it has a booked appointment in the future.',
    params: idParams,
    status: 204,
    handler: (ctx, { params }) => deleteSchedule(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/schedule/{id}/slot',
    tag: 'Scheduling',
    summary: 'Free slots of a schedule',
    description:
      'From `from` 00:00 to the end of `to` (local dates of the schedule, at most 62 days): availability cut into slots, without slots that have begun, fall within the minimum notice, or overlap a booked appointment widened by the buffer. UTC, ascending; a bare array.',
    params: idParams,
    query: slotQuery,
    response: z.array(slotSchema),
    handler: (ctx, { params, query }) => listSlots(ctx, params.id, query.from, query.to),
  }),
];

export const appointmentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/appointment',
    tag: 'Scheduling',
    summary: 'Book an appointment',
    description:
      '`start` must be a free slot start (400 naming `start` otherwise; 409 when taken). The database refuses overlapping bookings, so of simultaneous bookings of one slot exactly one succeeds. An `activityId` of kind appointment is completed by the booking. Emits `appointment_create`.',
    body: createAppointmentInput,
    response: appointmentSchema,
    status: 201,
    location: (a: { id: number }) => `/appointment/${a.id}`,
    handler: (ctx, { body }) => createAppointment(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/appointment',
    tag: 'Scheduling',
    summary: 'List appointments',
    description: 'A member token sees only its own. `from`/`to` filter on `start`.',
    query: listAppointmentsQuery,
    paginated: true,
    response: appointmentSchema,
    handler: (ctx, { query, page }) => listAppointments(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/appointment/{id}', tag: 'Scheduling', summary: 'Get an appointment', params: idParams, response: appointmentSchema, handler: (ctx, { params }) => getAppointment(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/appointment/{id}',
    tag: 'Scheduling',
    summary: 'Reschedule, edit, cancel or close an appointment',
    description:
      'A new `start` follows the booking rules; `status` moves a booked appointment to cancelled, fulfilled or noshow (final: later changes are 409). Cancelling reopens the activity it completed. Members: their own, never fulfilled/noshow (403). Emits `appointment_update`.',
    params: idParams,
    body: updateAppointmentInput,
    response: appointmentSchema,
    handler: (ctx, { params, body }) => updateAppointment(ctx, params.id, body),
  }),
];

export const encounterRoutes = [
  defineRoute({
    method: 'POST',
    path: '/encounter',
    tag: 'Scheduling',
    summary: 'Record an encounter (the visit)',
    description: '`appointmentId`: a booked appointment of the subject, one encounter each (409). Emits `encounter_create`.',
    body: createEncounterInput,
    response: encounterSchema,
    status: 201,
    location: (e: { id: number }) => `/encounter/${e.id}`,
    handler: (ctx, { body }) => createEncounter(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/encounter',
    tag: 'Scheduling',
    summary: 'List encounters',
    description: 'A member token sees only its own.',
    query: listEncountersQuery,
    paginated: true,
    response: encounterSchema,
    handler: (ctx, { query, page }) => listEncounters(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/encounter/{id}', tag: 'Scheduling', summary: 'Get an encounter', params: idParams, response: encounterSchema, handler: (ctx, { params }) => getEncounter(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/encounter/{id}',
    tag: 'Scheduling',
    summary: 'Move an encounter on',
    description: 'planned -> in-progress -> finished; planned or in-progress -> cancelled; final ones 409. Finishing sets `end` (default now) and marks the appointment fulfilled. Emits `encounter_update`.',
    params: idParams,
    body: updateEncounterInput,
    response: encounterSchema,
    handler: (ctx, { params, body }) => updateEncounter(ctx, params.id, body),
  }),
];
