import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { createArticle, deleteArticle, getArticle, listArticles, updateArticle } from '@/server/services/articles/articles';
import { ARTICLE_STATUSES, createArticleInput, updateArticleInput } from '@/server/services/articles/schemas';
import {
  createQuestionnaire,
  deleteQuestionnaire,
  getQuestionnaire,
  listQuestionnaires,
  listQuestionnaireVersions,
  questionnaireTitles,
  updateQuestionnaire,
} from '@/server/services/questionnaires/questionnaires';
import { createResponse, getResponse, listResponses, updateResponse } from '@/server/services/questionnaires/responses';
import {
  createQuestionnaireInput,
  createResponseInput,
  QUESTIONNAIRE_STATUSES,
  RESPONSE_STATUSES,
  updateQuestionnaireInput,
  updateResponseInput,
} from '@/server/services/questionnaires/schemas';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { byId, pageInput, pageOf } from './shared';

const search = z.string().trim().max(200).optional();

/** Articles: staff read them all; admins write them (as templates). */
export const articlesRouter = router({
  list: staffProcedure
    .input(z.object({ search, status: z.enum(ARTICLE_STATUSES).optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listArticles(ctx.svc, input, pageOf(input))),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getArticle(ctx.svc, String(input.id))),
  create: adminProcedure.input(createArticleInput).mutation(({ ctx, input }) => createArticle(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateArticleInput }))
    .mutation(({ ctx, input }) => updateArticle(ctx.svc, String(input.id), input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteArticle(ctx.svc, String(input.id))),
});

export const questionnairesRouter = router({
  list: staffProcedure
    .input(z.object({ search, status: z.enum(QUESTIONNAIRE_STATUSES).optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listQuestionnaires(ctx.svc, input, pageOf(input))),
  get: staffProcedure
    .input(z.object({ id: idSchema, version: z.number().int().positive().optional() }))
    .query(({ ctx, input }) => getQuestionnaire(ctx.svc, String(input.id), input.version)),
  versions: staffProcedure.input(byId).query(({ ctx, input }) => listQuestionnaireVersions(ctx.svc, String(input.id))),
  titles: staffProcedure.input(z.object({ ids: z.array(idSchema).max(200) })).query(({ ctx, input }) => questionnaireTitles(ctx.svc, input.ids)),
  create: adminProcedure.input(createQuestionnaireInput).mutation(({ ctx, input }) => createQuestionnaire(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateQuestionnaireInput }))
    .mutation(({ ctx, input }) => updateQuestionnaire(ctx.svc, String(input.id), input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteQuestionnaire(ctx.svc, String(input.id))),
});

/** Responses: coordinators read them and enter them on a member's behalf (a paper form brought to a visit). */
export const responsesRouter = router({
  list: staffProcedure
    .input(
      z
        .object({
          questionnaireId: idSchema.optional(),
          subjectId: idSchema.optional(),
          activityId: idSchema.optional(),
          status: z.enum(RESPONSE_STATUSES).optional(),
          ...pageInput,
        })
        .default({ limit: 50 }),
    )
    .query(({ ctx, input }) => listResponses(ctx.svc, input, pageOf(input))),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getResponse(ctx.svc, input.id)),
  create: staffProcedure.input(createResponseInput).mutation(({ ctx, input }) => createResponse(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: idSchema, changes: updateResponseInput }))
    .mutation(({ ctx, input }) => updateResponse(ctx.svc, input.id, input.changes)),
});
