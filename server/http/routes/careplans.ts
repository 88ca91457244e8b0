import { z } from 'zod';
import { ApiResult, defineRoute } from '@/server/http/define-route';
import { idParam, idFilter } from '@/server/core/ids';
import { createCareplan, deleteCareplan, getCareplan, listCareplans, updateCareplan } from '@/server/services/careplans/careplans';
import { createDefinition, deleteDefinition, getDefinition, listDefinitions, updateDefinition } from '@/server/services/careplans/definitions';
import {
  createObservation,
  createObservationCode,
  deleteObservationCode,
  getObservation,
  getObservationCode,
  listObservationCodes,
  listObservations,
  updateObservationCode,
} from '@/server/services/careplans/observations';
import { patchParameter, setParameter } from '@/server/services/careplans/parameters';
import { CAREPLAN_STATUSES, careplanSchema, createCareplanInput, createDefinitionInput, createObservationCodeInput, createObservationInput, definitionSchema, includeParam, listObservationsQuery, observationCodeSchema, observationSchema, parameterSchema, patchParameterInput, setParameterInput, updateCareplanInput, updateDefinitionInput, updateObservationCodeInput } from '@/server/services/careplans/schemas';
import { slugPattern } from '@/server/core/names';

const idParams = z.object({ id: idParam });
const idOrSlugParams = z.object({ idOrSlug: z.string().regex(slugPattern) });
const definitionInclude = { include: includeParam(['inputs', 'inputs.observationCode']) };
const careplanInclude = { include: includeParam(['parameters', 'parameters.observation', 'activities']) };
const defInclude = (s: Set<string>) => ({ inputs: s.has('inputs'), observationCode: s.has('inputs.observationCode') });
const cpInclude = (s: Set<string>) => ({ parameters: s.has('parameters'), observation: s.has('parameters.observation'), activities: s.has('activities') });

export const observationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/observation-code',
    tag: 'Observation codes',
    summary: 'Create an observation code',
    body: createObservationCodeInput,
    response: observationCodeSchema,
    status: 201,
    location: (c: { id: number }) => `/observation-code/${c.id}`,
    handler: (ctx, { body }) => createObservationCode(ctx, body),
  }),
  defineRoute({ method: 'GET', path: '/observation-code', tag: 'Observation codes', summary: 'List observation codes', paginated: true, response: observationCodeSchema, handler: (ctx, { page }) => listObservationCodes(ctx, page) }),
  defineRoute({ method: 'GET', path: '/observation-code/{idOrSlug}', tag: 'Observation codes', summary: 'Get an observation code by id or slug', params: idOrSlugParams, response: observationCodeSchema, handler: (ctx, { params }) => getObservationCode(ctx, params.idOrSlug) }),
  defineRoute({
    method: 'PATCH',
    path: '/observation-code/{idOrSlug}',
    tag: 'Observation codes',
    summary: 'Update an observation code',
    params: idOrSlugParams,
    body: updateObservationCodeInput,
    response: observationCodeSchema,
    handler: (ctx, { params, body }) => updateObservationCode(ctx, params.idOrSlug, body),
  }),
  defineRoute({ method: 'DELETE', path: '/observation-code/{idOrSlug}', tag: 'Observation codes', summary: 'Delete an observation code (409 while used)', params: idOrSlugParams, status: 204, handler: (ctx, { params }) => deleteObservationCode(ctx, params.idOrSlug) }),
  defineRoute({
    method: 'POST',
    path: '/observation',
    tag: 'Observations',
    summary: 'Record an observation about a member',
    description: 'The value must suit the code: a calendar date YYYY-MM-DD for date codes.',
    body: createObservationInput,
    response: observationSchema,
    status: 201,
    location: (o: { id: number }) => `/observation/${o.id}`,
    handler: (ctx, { body }) => createObservation(ctx, body),
  }),
  defineRoute({ method: 'GET', path: '/observation', tag: 'Observations', summary: 'List observations', query: listObservationsQuery, paginated: true, response: observationSchema, handler: (ctx, { query, page }) => listObservations(ctx, query, page) }),
  defineRoute({ method: 'GET', path: '/observation/{id}', tag: 'Observations', summary: 'Get an observation', params: idParams, response: observationSchema, handler: (ctx, { params }) => getObservation(ctx, params.id) }),
];

export const definitionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/careplan-definition',
    tag: 'Care plan definitions',
    summary: 'Create a care plan definition (version 1)',
    description: 'Emits `careplan_definition_create`. Inputs name date observation codes; actions are scheduled from an input or from the care plan start.',
    body: createDefinitionInput,
    query: z.object(definitionInclude),
    response: definitionSchema,
    status: 201,
    location: (d: { id: number }) => `/careplan-definition/${d.id}`,
    handler: (ctx, { body, query }) => createDefinition(ctx, body, query.include.size ? defInclude(query.include) : undefined),
  }),
  defineRoute({
    method: 'GET',
    path: '/careplan-definition',
    tag: 'Care plan definitions',
    summary: 'List care plan definitions (latest versions)',
    query: z.object({ ...definitionInclude, slug: z.string().optional(), id: idFilter }),
    paginated: true,
    response: definitionSchema,
    handler: (ctx, { query, page }) => listDefinitions(ctx, query, defInclude(query.include), page),
  }),
  defineRoute({
    method: 'GET',
    path: '/careplan-definition/{idOrSlug}',
    tag: 'Care plan definitions',
    summary: 'Get a care plan definition by id or slug',
    params: idOrSlugParams,
    query: z.object({ ...definitionInclude, version: idFilter }),
    response: definitionSchema,
    handler: (ctx, { params, query }) => getDefinition(ctx, params.idOrSlug, defInclude(query.include), query.version),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/careplan-definition/{idOrSlug}',
    tag: 'Care plan definitions',
    summary: 'Save changes',
    description: 'Edits the latest version in place while no care plan uses it; otherwise, or with `newVersion: true`, saves version+1. Emits `careplan_definition_update`.',
    params: idOrSlugParams,
    query: z.object(definitionInclude),
    body: updateDefinitionInput,
    response: definitionSchema,
    handler: (ctx, { params, body, query }) => updateDefinition(ctx, params.idOrSlug, body, query.include.size ? defInclude(query.include) : undefined),
  }),
  defineRoute({ method: 'DELETE', path: '/careplan-definition/{idOrSlug}', tag: 'Care plan definitions', summary: 'Delete a definition (409 while ongoing care plans use it)', params: idOrSlugParams, status: 204, handler: (ctx, { params }) => deleteDefinition(ctx, params.idOrSlug) }),
];

export const careplanRoutes = [
  defineRoute({
    method: 'POST',
    path: '/careplan',
    tag: 'Care plans',
    summary: 'Enrol a member in a care plan',
    description: 'Pins the latest version, creates one empty parameter per input and the activities that need no input. Emits `careplan_create`.',
    body: createCareplanInput,
    response: careplanSchema,
    status: 201,
    location: (c: { id: number }) => `/careplan/${c.id}`,
    handler: (ctx, { body }) => createCareplan(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/careplan',
    tag: 'Care plans',
    summary: 'List care plans',
    query: z.object({ subjectId: idFilter, definitionId: idFilter, status: z.enum(CAREPLAN_STATUSES).optional() }),
    paginated: true,
    response: careplanSchema,
    handler: (ctx, { query, page }) => listCareplans(ctx, query, page),
  }),
  defineRoute({ method: 'GET', path: '/careplan/{id}', tag: 'Care plans', summary: 'Get a care plan', params: idParams, query: z.object(careplanInclude), response: careplanSchema, handler: (ctx, { params, query }) => getCareplan(ctx, params.id, cpInclude(query.include)) }),
  defineRoute({
    method: 'PATCH',
    path: '/careplan/{id}',
    tag: 'Care plans',
    summary: 'Update a care plan',
    description: 'Leaving `ongoing` cancels its proposed and scheduled activities; a completed or cancelled care plan keeps its status (409). Emits `careplan_update`.',
    params: idParams,
    body: updateCareplanInput,
    response: careplanSchema,
    handler: (ctx, { params, body }) => updateCareplan(ctx, params.id, body),
  }),
  defineRoute({ method: 'DELETE', path: '/careplan/{id}', tag: 'Care plans', summary: 'Delete a care plan with its parameters and activities', params: idParams, status: 204, handler: (ctx, { params }) => deleteCareplan(ctx, params.id) }),
  defineRoute({
    method: 'POST',
    path: '/careplan-parameter',
    tag: 'Care plans',
    summary: 'Set the parameter of an input',
    description: 'With a new observation (linked to the subject) or an existing one. 201 when the care plan had no parameter for the input, 200 when it filled the existing one. The first date creates the input\u2019s activities; a changed date moves the open ones.',
    body: setParameterInput,
    response: parameterSchema,
    status: 201,
    location: (p: { id: number }) => `/careplan-parameter/${p.id}`,
    handler: async (ctx, { body }) => {
      const { created, parameter } = await setParameter(ctx, body);
      return new ApiResult(created ? 201 : 200, parameter);
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/careplan-parameter/{id}',
    tag: 'Care plans',
    summary: 'Change or empty a parameter',
    description: '`observationId: null` empties it and cancels the open activities anchored on it.',
    params: idParams,
    body: patchParameterInput,
    response: parameterSchema,
    handler: (ctx, { params, body }) => patchParameter(ctx, params.id, body),
  }),
];
