import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { activities } from './careplans';
import { APPOINTMENT_STATUSES, ENCOUNTER_STATUSES } from './enums';
import { members } from './members';
import { projects, timestamps } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type AvailabilityWindow = { day: string; start: string; end: string };
export type ScheduleException = { date: string; windows: { start: string; end: string }[] };

/** A calendar that can be booked: a clinician, a room, a phone line (CONTRACT 10). */
export const schedules = pgTable(
  'schedule',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    display: text('display').notNull(),
    timeZone: text('time_zone').notNull(),
    slotMinutes: integer('slot_minutes').notNull(),
    availability: jsonb('availability').$type<AvailabilityWindow[]>().notNull(),
    exceptions: jsonb('exceptions').$type<ScheduleException[]>().notNull(),
    minimumNoticeMinutes: integer('minimum_notice_minutes').notNull(),
    bufferMinutes: integer('buffer_minutes').notNull(),
    active: boolean('active').notNull(),
    ...timestamps,
  },
  (t) => [index('schedule_project_idx').on(t.projectId, t.id)],
);

/**
 * A booked time of a schedule. `blockedUntil` is `end` plus the schedule's buffer when it was booked:
 * the exclusion constraint `appointment_no_overlap` (migration 0007, btree_gist) refuses two booked
 * appointments of one schedule whose [start, blockedUntil) ranges overlap, so a gap shorter than the
 * buffer (on either side) is impossible, whichever instance books.
 */
export const appointments = pgTable(
  'appointment',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    title: text('title'),
    note: text('note'),
    start: tz('start_at').notNull(),
    end: tz('end_at').notNull(),
    blockedUntil: tz('blocked_until').notNull(),
    status: text('status', { enum: APPOINTMENT_STATUSES }).notNull().default('booked'),
    ...timestamps,
  },
  (t) => [
    index('appointment_project_idx').on(t.projectId, t.id),
    index('appointment_schedule_start_idx').on(t.scheduleId, t.start),
    index('appointment_subject_idx').on(t.subjectId, t.id),
  ],
);

/** The visit itself; at most one per appointment. */
export const encounters = pgTable(
  'encounter',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    appointmentId: integer('appointment_id').references(() => appointments.id, { onDelete: 'set null' }),
    status: text('status', { enum: ENCOUNTER_STATUSES }).notNull(),
    start: tz('start_at').notNull(),
    end: tz('end_at'),
    note: text('note'),
    ...timestamps,
  },
  (t) => [index('encounter_project_idx').on(t.projectId, t.id), uniqueIndex('encounter_appointment_key').on(t.appointmentId), index('encounter_subject_idx').on(t.subjectId, t.id)],
);
