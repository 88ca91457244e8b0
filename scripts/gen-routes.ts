// Writes one app/api/v1 route file per REST path in the route table (run: npx tsx scripts/gen-routes.ts).
import fs from 'node:fs';
import path from 'node:path';
import { routes } from '@/server/http/routes';

const byPath = new Map<string, string[]>();
for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
for (const [p, methods] of byPath) {
  const dir = path.join('app/api/v1', p.replace(/\{(\w+)\}/g, '[$1]'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'route.ts'),
    `import { routeHandlers } from '@/server/http/routes';\n\nexport const dynamic = 'force-dynamic';\n\nexport const { ${methods.sort().join(', ')} } = routeHandlers('${p}');\n`,
  );
}
console.log(`${byPath.size} route files`);
