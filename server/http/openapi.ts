import { z } from 'zod';
import { commonQuery, listQuery, type RouteSpec } from './define-route';
import { problemSchema } from './problem';
import { routes } from './routes';
import { EVENT_CATALOGUE, exampleBody } from '@/server/services/events/catalogue';
import { EVENT_NAMES } from '@/server/core/event-names';

type JsonSchema = Record<string, unknown>;
const components: Record<string, JsonSchema> = {};

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) with named schemas hoisted into components. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const text = (o: unknown) => JSON.parse(JSON.stringify(o).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries(defs)) components[name] ??= text(def);
  const id = json.id as string | undefined;
  if (id) {
    delete json.id;
    components[id] ??= text(json);
    return { $ref: `#/components/schemas/${id}` };
  }
  return text(json);
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

function operation(spec: RouteSpec) {
  const parameters: unknown[] = [];
  for (const match of spec.path.matchAll(/\{(\w+)\}/g)) {
    const name = match[1]!;
    parameters.push({ name, in: 'path', required: true, schema: { type: /(^id$|Id$)/.test(name) ? 'integer' : 'string' } });
  }
  const shape = { ...commonQuery, ...(spec.paginated ? listQuery : {}), ...(spec.query?.shape ?? {}) };
  for (const [name, field] of Object.entries(shape)) {
    const s = schemaOf(field as z.ZodType, 'input');
    const description = s.description;
    delete s.description;
    parameters.push({ name, in: 'query', required: false, schema: s, ...(description ? { description } : {}) });
  }
  const status = String(spec.status ?? 200);
  const success =
    status === '204'
      ? { description: 'No content' }
      : {
          description: 'Success',
          ...(spec.paginated
            ? { headers: { Link: { description: 'rel="next" when more rows exist', schema: { type: 'string' } } } }
            : {}),
          ...(status === '201' ? { headers: { Location: { schema: { type: 'string' } } } } : {}),
          content: { 'application/json': { schema: spec.response ? schemaOf(spec.paginated ? z.array(spec.response) : spec.response, 'output') : {} } },
        };
  return {
    operationId: `${spec.method.toLowerCase()}${spec.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters,
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.body, 'input') } } } }
      : {}),
    responses: {
      [status]: success,
      '400': problemResponse('Invalid request'),
      '401': problemResponse('Missing, unknown or revoked token'),
      '403': problemResponse('Not allowed'),
      '404': problemResponse('Not found in this project'),
      ...(spec.method === 'POST' || spec.method === 'PATCH'
        ? { '409': problemResponse('Conflict'), '413': problemResponse('Body over 1 MiB'), '415': problemResponse('Not JSON') }
        : {}),
    },
  };
}

const signatureHeaders = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The delivery id; the same on every retry of it', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds when this attempt was signed', schema: { type: 'string' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, two space-separated for 24 h after a secret rotation',
    schema: { type: 'string' },
  },
];

/**
 * The payload catalogue (CONTRACT 11): the call body of each of the 27 events, with the JSON Schema of
 * its `params` and `responseData` and the example "Send test" sends.
 */
function webhookOperations() {
  return Object.fromEntries(
    EVENT_NAMES.map((event) => {
      const entry = EVENT_CATALOGUE[event];
      const body = {
        type: 'object',
        required: ['event', 'projectId', 'params'],
        properties: {
          event: { const: event },
          projectId: { type: 'integer' },
          params: schemaOf(entry.params, 'input'),
          responseData: { ...schemaOf(entry.responseData, 'output'), description: '`after` calls only: the output of the operation' },
        },
      };
      const operation = {
        operationId: `webhook_${event}`,
        summary: entry.summary,
        description: `${entry.description}\n\nSent to webhooks with a trigger for \`${event}\`: \`after\` (responseData included), \`before\` or \`handle\` (without it).`,
        tags: ['Webhook events'],
        parameters: signatureHeaders,
        requestBody: { required: true, content: { 'application/json': { schema: body, example: exampleBody(event, 1) } } },
        responses: {
          '200': {
            description:
              'Any 2xx within 15 s (after) or 10 s (before, handle) succeeds. A handle answer is a JSON object: the operation\'s output. 410 disables the webhook; anything else is retried (after) or fails the operation with 502 (before, handle).',
          },
        },
      };
      return [event, { post: operation }];
    }),
  );
}

let cached: unknown;

export function openApiDocument(version: string): unknown {
  if (cached) return cached;
  schemaOf(problemSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Carebase API',
      version,
      description:
        'Member records, care plans and webhooks. Authenticate with `Authorization: Bearer <token>`: an integration API key (acts as admin, or as the member named by `actorId`) or a member access token. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    tags: [...[...new Set(routes.map((r) => r.tag))].map((name) => ({ name })), { name: 'Webhook events', description: 'What Carebase sends to webhooks, event by event' }],
    paths,
    webhooks: webhookOperations(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: components,
    },
  };
  return cached;
}
