/**
 * Builds the app for production when `.next` is missing or older than any source file, so the HTTP tests
 * (Vitest, in process) and the browser tests (Playwright) share one build and skip it when nothing
 * changed. `npx tsx scripts/ensure-build.ts`, or `ensureBuild()` from a test setup.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'server', 'db', 'inngest', 'instrumentation.ts', 'next.config.mjs', 'postcss.config.mjs', 'package.json', 'tsconfig.json', 'patches'];
const SKIP = /(\.test\.tsx?|\.spec\.ts)$|^server\/testing\//;

function newestSource(root: string): number {
  let newest = 0;
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const entry of fs.readdirSync(full)) visit(path.join(rel, entry));
    else if (!SKIP.test(rel)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const s of SOURCES) visit(s);
  return newest;
}

export function ensureBuild(root = process.cwd()): 'fresh' | 'built' {
  const buildId = fs.statSync(path.join(root, '.next', 'BUILD_ID'), { throwIfNoEntry: false });
  if (buildId && buildId.mtimeMs >= newestSource(root)) return 'fresh';
  console.log('[build] sources changed since the last production build: next build');
  execFileSync('npx', ['next', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' } });
  return 'built';
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) console.log(`[build] ${ensureBuild()}`);
