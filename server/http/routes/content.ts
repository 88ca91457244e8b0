import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idFilter, idParam } from '@/server/core/ids';
import { slugPattern } from '@/server/core/names';
import { createArticle, deleteArticle, getArticle, listArticles, updateArticle } from '@/server/services/articles/articles';
import { articleSchema, createArticleInput, listArticlesQuery, updateArticleInput } from '@/server/services/articles/schemas';
import { createQuestionnaire, deleteQuestionnaire, getQuestionnaire, listQuestionnaires, updateQuestionnaire } from '@/server/services/questionnaires/questionnaires';
import { createResponse, getResponse, listResponses, updateResponse } from '@/server/services/questionnaires/responses';
import {
  createQuestionnaireInput,
  createResponseInput,
  listQuestionnairesQuery,
  listResponsesQuery,
  questionnaireSchema,
  responseSchema,
  updateQuestionnaireInput,
  updateResponseInput,
} from '@/server/services/questionnaires/schemas';

const idParams = z.object({ id: idParam });
const idOrSlugParams = z.object({ idOrSlug: z.string().regex(slugPattern) });

export const articleRoutes = [
  defineRoute({
    method: 'POST',
    path: '/article',
    tag: 'Articles',
    summary: 'Create an article',
    description: '`body` is Markdown (CommonMark), stored exactly as sent; Carebase renders it without raw HTML. Emits `article_create`.',
    body: createArticleInput,
    response: articleSchema,
    status: 201,
    location: (a: { id: number }) => `/article/${a.id}`,
    handler: (ctx, { body }) => createArticle(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/article',
    tag: 'Articles',
    summary: 'List articles',
    description: 'A member token sees published articles only.',
    query: listArticlesQuery,
    paginated: true,
    response: articleSchema,
    handler: (ctx, { query, page }) => listArticles(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/article/{idOrSlug}', tag: 'Articles', summary: 'Get an article by id or slug', params: idOrSlugParams, response: articleSchema, handler: (ctx, { params }) => getArticle(ctx, params.idOrSlug) }),
  defineRoute({
    method: 'PATCH',
    path: '/article/{idOrSlug}',
    tag: 'Articles',
    summary: 'Update, publish or unpublish an article',
    description: '`publishedAt` is set the first time it becomes published. No event (the spec names none).',
    params: idOrSlugParams,
    body: updateArticleInput,
    response: articleSchema,
    handler: (ctx, { params, body }) => updateArticle(ctx, params.idOrSlug, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/article/{idOrSlug}',
    tag: 'Articles',
    summary: 'Delete an article',
    description: "409 while an action of a template's latest version names it. Activities keep their text without the link.",
    params: idOrSlugParams,
    status: 204,
    handler: (ctx, { params }) => deleteArticle(ctx, params.idOrSlug),
  }),
];

export const questionnaireRoutes = [
  defineRoute({
    method: 'POST',
    path: '/questionnaire',
    tag: 'Questionnaires',
    summary: 'Create a questionnaire (version 1)',
    description: 'Items of type display, string, text, integer, decimal, boolean, date or choice; conditions name earlier items. Emits `questionnaire_create`.',
    body: createQuestionnaireInput,
    response: questionnaireSchema,
    status: 201,
    location: (q: { id: number }) => `/questionnaire/${q.id}`,
    handler: (ctx, { body }) => createQuestionnaire(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/questionnaire',
    tag: 'Questionnaires',
    summary: 'List questionnaires (latest versions)',
    description: 'A member token sees active questionnaires only.',
    query: listQuestionnairesQuery,
    paginated: true,
    response: questionnaireSchema,
    handler: (ctx, { query, page }) => listQuestionnaires(ctx, query, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/questionnaire/{idOrSlug}',
    tag: 'Questionnaires',
    summary: 'Get a questionnaire by id or slug',
    params: idOrSlugParams,
    query: z.object({ version: idFilter.meta({ description: 'An older version' }) }),
    response: questionnaireSchema,
    handler: (ctx, { params, query }) => getQuestionnaire(ctx, params.idOrSlug, query.version),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/questionnaire/{idOrSlug}',
    tag: 'Questionnaires',
    summary: 'Save changes',
    description:
      'Edits the latest version in place while no response answers it; otherwise, or with `newVersion: true`, saves version+1. A change of status alone never makes a version. Emits `questionnaire_update`.',
    params: idOrSlugParams,
    body: updateQuestionnaireInput,
    response: questionnaireSchema,
    handler: (ctx, { params, body }) => updateQuestionnaire(ctx, params.idOrSlug, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/questionnaire/{idOrSlug}',
    tag: 'Questionnaires',
    summary: 'Delete a questionnaire',
    description: "409 while responses answer it or an action of a template's latest version names it (retire it instead).",
    params: idOrSlugParams,
    status: 204,
    handler: (ctx, { params }) => deleteQuestionnaire(ctx, params.idOrSlug),
  }),
];

export const responseRoutes = [
  defineRoute({
    method: 'POST',
    path: '/questionnaire-response',
    tag: 'Questionnaire responses',
    summary: 'Answer a questionnaire',
    description:
      'Answers the latest version of an active questionnaire. Errors name each failing place (`answers.<i>.value`, `answers.<i>.linkId`, `answers`). A completed response completes the activity it names, and its mapped answers become observations that fill or move care plan parameters. A member token answers for itself only. Emits `questionnaire_response_create`.',
    body: createResponseInput,
    response: responseSchema,
    status: 201,
    location: (r: { id: number }) => `/questionnaire-response/${r.id}`,
    handler: (ctx, { body }) => createResponse(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/questionnaire-response',
    tag: 'Questionnaire responses',
    summary: 'List responses',
    description: 'A member token sees its own responses only.',
    query: listResponsesQuery,
    paginated: true,
    response: responseSchema,
    handler: (ctx, { query, page }) => listResponses(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/questionnaire-response/{id}', tag: 'Questionnaire responses', summary: 'Get a response', params: idParams, response: responseSchema, handler: (ctx, { params }) => getResponse(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/questionnaire-response/{id}',
    tag: 'Questionnaire responses',
    summary: 'Save, complete or amend a response',
    description:
      'A draft is saved again or completed; changing the answers of a completed response makes it amended (its changed mapped answers move the care plans they set); a completed or amended response never returns to in-progress (409). Emits `questionnaire_response_update`.',
    params: idParams,
    body: updateResponseInput,
    response: responseSchema,
    handler: (ctx, { params, body }) => updateResponse(ctx, params.id, body),
  }),
];
