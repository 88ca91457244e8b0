import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/openapi.json/route';
import { ROUTE_FILE_METHODS, routes } from './routes';

const API_DIR = path.join(process.cwd(), 'app/api/v1');

/** Every route file under app/api/v1 as its API path, read from the files themselves. */
function servedPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const rel = path.relative(API_DIR, dir).split(path.sep).join('/');
        if (rel.startsWith('[...') || rel === 'openapi.json') continue;
        const apiPath = `/${rel}`.replace(/\[(\w+)\]/g, '{$1}');
        const src = fs.readFileSync(full, 'utf8');
        const methods = /export const \{ ([A-Z, ]+) \} = routeHandlers\('([^']+)'\)/.exec(src);
        if (!methods) throw new Error(`${full} does not export routeHandlers(...)`);
        expect(methods[2]).toBe(apiPath);
        // Every file answers the same methods: the route table's, and 405 for the rest.
        expect(methods[1]!.split(', ')).toEqual([...ROUTE_FILE_METHODS]);
        out.push(apiPath);
      }
    }
  };
  walk(API_DIR);
  return out.sort();
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and documents every served route, and nothing that is not served', async () => {
    const doc = (await GET().json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(servedPaths()).toEqual([...new Set(routes.map((r) => r.path))].sort());
  });

  it('resolves every $ref to a component schema', async () => {
    const doc = (await GET().json()) as { components: { schemas: Record<string, unknown> } };
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty(ref);
    expect(doc.components.schemas).toHaveProperty('Member');
    expect(doc.components.schemas).toHaveProperty('Problem');
  });
});
