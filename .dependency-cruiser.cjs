/**
 * The dependency rule of ARCHITECTURE.md (docs/decisions/0009-dependency-rule.md), checked by
 * `npm run lint`. Every import between the project's own files must match one `allowed` edge; anything
 * else is an error, and so is any import cycle. Composition roots (boot, CLI, seed, tests, benchmarks)
 * wire layers together and may import any of them.
 */
const layer = {
  core: '^server/(core/|env\\.ts$|errors\\.ts$|context\\.ts$)',
  db: '^db/',
  webhooks: '^server/webhooks/',
  events: '^server/events/',
  audit: '^server/audit/',
  guards: '^server/auth/guards\\.ts$',
  services: '^server/services/',
  // The zod schemas and the pure rules the forms run in the browser (questionnaire answers).
  schemas: '^server/services/[^/]+/(schemas|rules)\\.ts$',
  auth: '^server/auth/',
  jobs: '^server/jobs/',
  executor: '^server/executor/',
  inngest: '^inngest/',
  http: '^server/http/',
  trpc: '^server/trpc/',
  app: '^app/',
};
const any = (...names) => names.map((n) => layer[n]);
const root = '^(server/boot\\.ts$|server/seed\\.ts$|server/cli/|server/testing/|bench/|e2e/|scripts/|instrumentation\\.ts$|[^/]+\\.config\\.[cm]?ts$)';
const test = '\\.(test|spec)\\.tsx?$';
const edge = (fromNames, toNames) => ({ from: { path: any(...fromNames) }, to: { path: any(...toNames) } });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles make load order and layering ambiguous.', from: {}, to: { circular: true } },
    {
      name: 'schemas-stay-client-safe',
      severity: 'error',
      comment: 'The zod schemas and rules are imported by browser code: they may use core helpers, enums and other schemas or rules, nothing that runs on the server only.',
      from: { path: layer.schemas, pathNot: test },
      to: { path: '^(server/(?!core/(ids|time|json|offsets|event-names|page|names|remembered)\\.ts$|services/[^/]+/(schemas|rules)\\.ts$)|db/(?!schema/enums\\.ts$))' },
    },
    {
      name: 'delivery-without-database',
      severity: 'error',
      comment: 'Pages, route adapters and procedures reach the database only through services.',
      from: { path: any('app', 'http', 'trpc'), pathNot: test },
      to: { path: '(^db/|node_modules/(drizzle-orm|postgres|@electric-sql)/)' },
    },
  ],
  allowedSeverity: 'error',
  allowed: [
    // npm packages and Node built-ins; which layer may use the database drivers is the rule above.
    { from: {}, to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core', 'type-only', 'aliased-subpath-import'], pathNot: '^(app|server|db|inngest)/' } },
    { from: {}, to: { path: '^package\\.json$' } },
    // Composition roots and tests may wire anything together.
    { from: { path: root }, to: {} },
    { from: { path: test }, to: {} },
    // Within one layer.
    ...Object.keys(layer).map((name) => edge([name], [name])),
    // Downward edges (the arrows of ARCHITECTURE.md).
    edge(['core'], ['db']), // ServiceContext carries the database handle
    edge(['db'], ['core']), // env only, in practice
    edge(['webhooks'], ['core', 'db']),
    edge(['events'], ['core', 'db', 'webhooks']),
    edge(['audit'], ['core', 'db']),
    edge(['services'], ['core', 'db', 'events', 'audit', 'webhooks', 'guards']),
    edge(['auth'], ['core', 'db', 'services', 'webhooks']), // sign-in calls identity providers under the outbound policy
    edge(['jobs'], ['core', 'db', 'events', 'audit', 'webhooks', 'services']),
    edge(['executor'], ['core', 'db', 'events', 'jobs']),
    edge(['inngest'], ['core', 'db', 'events', 'jobs']),
    edge(['http'], ['core', 'services', 'auth']),
    edge(['trpc'], ['core', 'services', 'auth']),
    // The UI: its adapters, and the zod schemas its forms validate with (no service logic, no database).
    edge(['app'], ['trpc', 'http', 'auth', 'schemas', 'core']),
    { from: { path: '^app/api/inngest/' }, to: { path: layer.inngest } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.next|\\.data[^/]*|test-results|playwright-report)/' },
    includeOnly: '^(app|server|db|inngest|bench|e2e|scripts|instrumentation\\.ts|package\\.json)',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
