import type { activities } from '@/db/schema';
import { iso, isoOrNull } from '@/server/core/time';
import { type ActivityDto } from '@/server/services/activities/schemas';

export type ActivityRow = typeof activities.$inferSelect;

export const toActivityDto = (a: ActivityRow): ActivityDto => ({
  id: a.id,
  careplanId: a.careplanId,
  subjectId: a.subjectId,
  actionKey: a.actionKey,
  kind: a.kind,
  type: a.type,
  display: a.display,
  description: a.description,
  articleId: a.articleId,
  questionnaireId: a.questionnaireId,
  scheduleId: a.scheduleId,
  questionnaireResponseId: a.questionnaireResponseId,
  appointmentId: a.appointmentId,
  actorType: a.actorType,
  status: a.status,
  activateAt: iso(a.activateAt),
  endAt: isoOrNull(a.endAt),
  remindAt: isoOrNull(a.remindAt),
  reminders: a.reminders as ActivityDto['reminders'],
  completedAt: isoOrNull(a.completedAt),
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});
