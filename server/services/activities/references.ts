import { and, eq, inArray } from 'drizzle-orm';
import { articles, questionnaires, schedules } from '@/db/schema';
import type { ServiceContext } from '@/server/context';
import { invalid, type FieldError } from '@/server/errors';

type References = { articleId?: number | null; questionnaireId?: number | null; scheduleId?: number | null };

/**
 * The ids an action or activity names must be resources of the project (CONTRACT 9: 400 naming the
 * field). `at(i)` is the path prefix of item i (`actions.2.` or nothing). Three queries at most, in parallel.
 */
export async function requireReferencesInProject(ctx: ServiceContext, items: References[], at: (i: number) => string = () => ''): Promise<void> {
  const ids = (field: keyof References) => [...new Set(items.flatMap((item) => (item[field] ? [item[field]] : [])))];
  const articleIds = ids('articleId');
  const questionnaireIds = ids('questionnaireId');
  const scheduleIds = ids('scheduleId');
  const [foundArticles, foundQuestionnaires, foundSchedules] = await Promise.all([
    articleIds.length === 0
      ? []
      : ctx.db.select({ id: articles.id }).from(articles).where(and(eq(articles.projectId, ctx.projectId), inArray(articles.id, articleIds))),
    questionnaireIds.length === 0
      ? []
      : ctx.db.select({ id: questionnaires.id }).from(questionnaires).where(and(eq(questionnaires.projectId, ctx.projectId), inArray(questionnaires.id, questionnaireIds))),
    scheduleIds.length === 0 ? [] : ctx.db.select({ id: schedules.id }).from(schedules).where(and(eq(schedules.projectId, ctx.projectId), inArray(schedules.id, scheduleIds))),
  ]);
  const scheduleSet = new Set(foundSchedules.map((r) => r.id));
  const articleSet = new Set(foundArticles.map((r) => r.id));
  const questionnaireSet = new Set(foundQuestionnaires.map((r) => r.id));
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (item.articleId && !articleSet.has(item.articleId)) errors.push({ path: `${at(i)}articleId`, message: 'No article with this id in the project' });
    if (item.questionnaireId && !questionnaireSet.has(item.questionnaireId)) errors.push({ path: `${at(i)}questionnaireId`, message: 'No questionnaire with this id in the project' });
    if (item.scheduleId && !scheduleSet.has(item.scheduleId)) errors.push({ path: `${at(i)}scheduleId`, message: 'No schedule with this id in the project' });
  });
  if (errors.length > 0) throw invalid(errors);
}

/**
 * The references of actions as they are when activities are made from them: an older template version
 * may name an article or questionnaire deleted since, and its activities then go without the link.
 */
type Current<T> = Omit<T, 'articleId' | 'questionnaireId' | 'scheduleId'> & { articleId: number | null; questionnaireId: number | null; scheduleId: number | null };
export async function existingReferences<T extends References>(ctx: ServiceContext, items: T[]): Promise<Current<T>[]> {
  const articleIds = [...new Set(items.flatMap((i) => (i.articleId ? [i.articleId] : [])))];
  const questionnaireIds = [...new Set(items.flatMap((i) => (i.questionnaireId ? [i.questionnaireId] : [])))];
  const scheduleIds = [...new Set(items.flatMap((i) => (i.scheduleId ? [i.scheduleId] : [])))];
  if (articleIds.length === 0 && questionnaireIds.length === 0 && scheduleIds.length === 0) return items.map((i) => ({ ...i, articleId: null, questionnaireId: null, scheduleId: null }));
  const [a, q, s] = await Promise.all([
    articleIds.length ? ctx.db.select({ id: articles.id }).from(articles).where(inArray(articles.id, articleIds)) : [],
    questionnaireIds.length ? ctx.db.select({ id: questionnaires.id }).from(questionnaires).where(inArray(questionnaires.id, questionnaireIds)) : [],
    scheduleIds.length ? ctx.db.select({ id: schedules.id }).from(schedules).where(inArray(schedules.id, scheduleIds)) : [],
  ]);
  const as = new Set(a.map((r) => r.id));
  const qs = new Set(q.map((r) => r.id));
  const ss = new Set(s.map((r) => r.id));
  return items.map((i) => ({
    ...i,
    articleId: i.articleId && as.has(i.articleId) ? i.articleId : null,
    questionnaireId: i.questionnaireId && qs.has(i.questionnaireId) ? i.questionnaireId : null,
    scheduleId: i.scheduleId && ss.has(i.scheduleId) ? i.scheduleId : null,
  }));
}
