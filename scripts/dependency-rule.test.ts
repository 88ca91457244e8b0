import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run lint` runs dependency-cruiser with .dependency-cruiser.cjs (the dependency rule of
 * ARCHITECTURE.md). These tests run that same config over small projects laid out like ours, so a
 * forbidden import is shown to fail the lint, and an allowed one to pass.
 */
const root = process.cwd();
const cruiser = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function cruise(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carebase-layers-'));
  dirs.push(dir);
  fs.copyFileSync(path.join(root, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] }, module: 'esnext', moduleResolution: 'bundler' } }));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module' }));
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
  }
  const roots = [...new Set(Object.keys(files).map((f) => f.split('/')[0]!))];
  const run = spawnSync(process.execPath, [cruiser, ...roots, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the dependency rule fails the lint on a forbidden import', () => {
  it('passes imports that follow the arrows', () => {
    const run = cruise({
      'server/core/ids.ts': 'export const id = 1;\n',
      'server/services/members/members.ts': "import { id } from '@/server/core/ids';\nexport const m = id;\n",
      'server/http/routes/members.ts': "import { m } from '@/server/services/members/members';\nexport const r = m;\n",
    });
    expect(run.output).toContain('no dependency violations');
    expect(run.status).toBe(0);
  });

  // The refusals share one run (each dependency-cruiser start costs seconds): their fixtures touch
  // different files, and the run reports every violation, each on its own line.
  const refusals = [
    ['a service importing an HTTP module', 'server/services/members/members.ts', "import { r } from '@/server/http/define-route';\nexport const m = r;\n", 'server/http/define-route.ts', 'not-in-allowed'],
    ['emit importing the executor', 'server/events/emit.ts', "import { x } from '@/server/executor/index';\nexport const e = x;\n", 'server/executor/index.ts', 'not-in-allowed'],
    ['a page importing the database', 'app/(admin)/page.tsx', "import { d } from '@/db/client';\nexport const p = d;\n", 'db/client.ts', 'delivery-without-database'],
    ['a schema importing a service', 'server/services/members/schemas.ts', "import { s } from '@/server/services/shared';\nexport const x = s;\n", 'server/services/shared.ts', 'schemas-stay-client-safe'],
  ] as const;
  let refused: ReturnType<typeof cruise>;
  beforeAll(() => {
    refused = cruise({
      ...Object.fromEntries(refusals.flatMap(([, from, source, to]) => [[from, source], [to, 'export const r = 1, x = 1, d = 1, s = 1;\n']])),
      'server/services/a/a.ts': "import { b } from '@/server/services/b/b';\nexport const a = b;\n",
      'server/services/b/b.ts': "import { a } from '@/server/services/a/a';\nexport const b = a;\n",
    });
  });

  it('fails the run once for each import that breaks the rule', () => {
    // dependency-cruiser exits with the number of errors: the four imports above, the cycle, and the
    // page's import of the database, which two rules forbid.
    expect(refused.status, refused.output).toBe(6);
  });

  it.each(refusals)('refuses %s', (_what, from, _source, to, rule) => {
    expect(refused.output).toContain(`${rule}: ${from} → ${to}`);
  });

  it('refuses import cycles', () => {
    expect(refused.output).toMatch(/no-cycles: server\/services\/[ab]\/[ab]\.ts → \s+server\/services\/[ab]\/[ab]\.ts/);
  });
});
