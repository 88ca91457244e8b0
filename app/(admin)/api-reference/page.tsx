import { Badge, PageHeader } from '@/app/_components/ui';
import { openApiDocument } from '@/server/http/openapi';
import pkg from '@/package.json';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'API reference' };

type Schema = Record<string, unknown>;
type Param = { name: string; in: string; required?: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: Param[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type WebhookOperation = { summary: string; description: string; requestBody: { content: { 'application/json': { example: unknown } } } };
type Doc = {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: WebhookOperation }>;
  components: { schemas: Record<string, Schema> };
};

const METHOD_TONES = { get: 'green', post: 'brand', patch: 'amber', delete: 'red' } as const;

function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (typeof s.$ref === 'string') return s.$ref.split('/').at(-1)!;
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(typeOf).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items as Schema)}[]`;
  if (Array.isArray(s.enum)) return (s.enum as string[]).map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.type)) return (s.type as string[]).join(' | ');
  return String(s.type ?? 'any');
}

/** A schema's fields: name and type on a line, what it means below (readable on a phone too). */
function SchemaTable({ name, schema }: { name: string; schema: Schema }) {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return (
    <div id={`schema-${name}`} className="rounded-md bg-white ring-1 ring-slate-200">
      <p className="border-b border-slate-100 bg-slate-50 px-3 py-1.5 font-mono text-xs font-semibold text-slate-800">{name}</p>
      <dl aria-label={`Fields of ${name}`} className="divide-y divide-slate-100 text-xs">
        {Object.entries(props).map(([field, s]) => (
          <div key={field} className="px-3 py-1.5">
            <dt className="break-words font-mono">
              <span className="font-medium text-slate-800">{field}</span>
              {required.has(field) && (
                <span className="text-red-700" title="required">
                  *
                </span>
              )}{' '}
              <span className="break-all text-slate-600">{typeOf(s)}</span>
            </dt>
            {typeof s.description === 'string' && <dd className="mt-0.5 text-slate-600">{s.description}</dd>}
          </div>
        ))}
      </dl>
    </div>
  );
}

export default function ApiReferencePage() {
  const doc = openApiDocument(pkg.version) as Doc;
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const tags = [...new Set(operations.map((o) => o.op.tags[0]!))];
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {doc.info.description} The machine-readable document is at{' '}
            <a href="/api/v1/openapi.json" className="font-medium text-brand-700 hover:underline">
              /api/v1/openapi.json
            </a>{' '}
            (OpenAPI 3.1).
          </>
        }
      />
      <nav aria-label="API sections" className="mb-6 flex flex-wrap gap-2">
        {tags.map((t) => (
          <a key={t} href={`#tag-${t}`} className="rounded-full bg-white px-3 py-1 text-sm text-slate-700 ring-1 ring-slate-200 hover:ring-brand-500">
            {t}
          </a>
        ))}
        <a href="#webhook-events" className="rounded-full bg-white px-3 py-1 text-sm text-slate-700 ring-1 ring-slate-200 hover:ring-brand-500">
          Webhook events
        </a>
      </nav>
      {tags.map((tag) => (
        <section key={tag} id={`tag-${tag}`} aria-labelledby={`h-${tag}`} className="mb-10">
          <h2 id={`h-${tag}`} className="mb-3 text-lg font-semibold text-slate-900">
            {tag}
          </h2>
          <div className="space-y-3">
            {operations
              .filter((o) => o.op.tags[0] === tag)
              .map(({ path, method, op }) => {
                const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'))!;
                const body = op.requestBody?.content['application/json'].schema;
                const bodyName = body && typeOf(body);
                const own = op.parameters.filter((p) => p.in === 'path' || !['projectId', 'actorId'].includes(p.name));
                return (
                  <details key={op.operationId} id={op.operationId} className="group rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
                    <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5">
                      <Badge tone={METHOD_TONES[method as keyof typeof METHOD_TONES]}>{method.toUpperCase()}</Badge>
                      <code className="break-all font-mono text-sm text-slate-900">{path}</code>
                      <span className="text-sm text-slate-600">{op.summary}</span>
                    </summary>
                    <div className="space-y-4 border-t border-slate-100 px-4 py-3 text-sm">
                      {op.description && <p className="text-slate-600">{op.description}</p>}
                      {own.length > 0 && (
                        <div>
                          <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Parameters</p>
                          <dl className="divide-y divide-slate-100 text-xs">
                            {own.map((p) => (
                              <div key={`${p.in}-${p.name}`} className="py-1">
                                <dt className="break-words font-mono">
                                  <span className="font-medium text-slate-800">{p.name}</span> <span className="text-slate-600">({p.in})</span>{' '}
                                  <span className="break-all text-slate-600">{typeOf(p.schema)}</span>
                                </dt>
                                {p.description && <dd className="mt-0.5 text-slate-600">{p.description}</dd>}
                              </div>
                            ))}
                          </dl>
                        </div>
                      )}
                      {body && bodyName && doc.components.schemas[bodyName] && (
                        <div>
                          <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Request body</p>
                          <SchemaTable name={bodyName} schema={doc.components.schemas[bodyName]} />
                        </div>
                      )}
                      <p className="text-xs text-slate-600">
                        <span className="font-semibold uppercase tracking-wide text-slate-600">Success:</span> {success[0]}{' '}
                        {success[1].content ? <code className="font-mono">{typeOf(success[1].content['application/json']!.schema)}</code> : 'no body'} · errors are{' '}
                        <code className="font-mono">application/problem+json</code>
                      </p>
                    </div>
                  </details>
                );
              })}
          </div>
        </section>
      ))}
      <section id="webhook-events" aria-labelledby="h-webhooks" className="mb-10">
        <h2 id="h-webhooks" className="mb-1 text-lg font-semibold text-slate-900">
          Webhook events
        </h2>
        <p className="mb-3 max-w-3xl text-sm text-slate-600">
          What Carebase POSTs to webhooks: <code className="font-mono text-xs">{'{event, projectId, params, responseData}'}</code>, signed per Standard Webhooks. Each event&apos;s schema is in the
          document&apos;s <code className="font-mono text-xs">webhooks</code> section; the example is what &ldquo;Send test&rdquo; sends.
        </p>
        <div className="space-y-3">
          {Object.entries(doc.webhooks).map(([event, { post }]) => (
            <details key={event} id={`event-${event}`} className="rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
              <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5">
                <code className="break-all font-mono text-sm text-slate-900">{event}</code>
                <span className="text-sm text-slate-600">{post.summary}</span>
              </summary>
              <div className="space-y-3 border-t border-slate-100 px-4 py-3 text-sm">
                <p className="whitespace-pre-line text-slate-600">{post.description}</p>
                <pre tabIndex={0} aria-label={`Example ${event} body`} className="max-h-80 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
                  {JSON.stringify(post.requestBody.content['application/json'].example, null, 2)}
                </pre>
              </div>
            </details>
          ))}
        </div>
      </section>
      <section aria-labelledby="h-schemas">
        <h2 id="h-schemas" className="mb-3 text-lg font-semibold text-slate-900">
          Schemas
        </h2>
        <div className="grid gap-3 lg:grid-cols-2">
          {Object.entries(doc.components.schemas).map(([name, schema]) => (
            <SchemaTable key={name} name={name} schema={schema} />
          ))}
        </div>
      </section>
    </>
  );
}
