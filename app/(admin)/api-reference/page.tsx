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
type Doc = { info: { description: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

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

function SchemaTable({ name, schema }: { name: string; schema: Schema }) {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return (
    <div id={`schema-${name}`} className="rounded-md ring-1 ring-slate-200">
      <p className="border-b border-slate-100 bg-slate-50 px-3 py-1.5 font-mono text-xs font-semibold text-slate-800">{name}</p>
      <table className="w-full text-xs">
        <caption className="sr-only">Fields of {name}</caption>
        <tbody className="divide-y divide-slate-100">
          {Object.entries(props).map(([field, s]) => (
            <tr key={field}>
              <th scope="row" className="w-48 px-3 py-1.5 text-left font-mono font-medium text-slate-800">
                {field}
                {required.has(field) && <span className="text-red-600" title="required">*</span>}
              </th>
              <td className="px-3 py-1.5 font-mono text-slate-600">{typeOf(s)}</td>
              <td className="px-3 py-1.5 text-slate-500">{typeof s.description === 'string' ? s.description : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
                    <summary className="flex cursor-pointer items-center gap-3 px-4 py-2.5">
                      <Badge tone={METHOD_TONES[method as keyof typeof METHOD_TONES]}>{method.toUpperCase()}</Badge>
                      <code className="font-mono text-sm text-slate-900">{path}</code>
                      <span className="truncate text-sm text-slate-500">{op.summary}</span>
                    </summary>
                    <div className="space-y-4 border-t border-slate-100 px-4 py-3 text-sm">
                      {op.description && <p className="text-slate-600">{op.description}</p>}
                      {own.length > 0 && (
                        <table className="w-full text-xs">
                          <caption className="mb-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">Parameters</caption>
                          <tbody className="divide-y divide-slate-100">
                            {own.map((p) => (
                              <tr key={`${p.in}-${p.name}`}>
                                <th scope="row" className="w-48 py-1 text-left font-mono font-medium">
                                  {p.name}
                                </th>
                                <td className="w-16 py-1 text-slate-500">{p.in}</td>
                                <td className="w-40 py-1 font-mono text-slate-600">{typeOf(p.schema)}</td>
                                <td className="py-1 text-slate-500">{p.description}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      )}
                      {body && bodyName && doc.components.schemas[bodyName] && (
                        <div>
                          <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Request body</p>
                          <SchemaTable name={bodyName} schema={doc.components.schemas[bodyName]} />
                        </div>
                      )}
                      <p className="text-xs text-slate-600">
                        <span className="font-semibold uppercase tracking-wide text-slate-500">Success:</span> {success[0]}{' '}
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
