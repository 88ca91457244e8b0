// Writes one app/api/v1 route file per REST path in the route table (run: npx tsx scripts/gen-routes.ts).
// Every file exports the same methods: those its path has, and 405 answers for the others.
import fs from 'node:fs';
import path from 'node:path';
import { ROUTE_FILE_METHODS, routes } from '@/server/http/routes';

const paths = [...new Set(routes.map((r) => r.path))];
for (const p of paths) {
  const dir = path.join('app/api/v1', p.replace(/\{(\w+)\}/g, '[$1]'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'route.ts'),
    `import { routeHandlers } from '@/server/http/routes';\n\nexport const dynamic = 'force-dynamic';\n\nexport const { ${ROUTE_FILE_METHODS.join(', ')} } = routeHandlers('${p}');\n`,
  );
}
console.log(`${paths.length} route files`);
