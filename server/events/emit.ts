import { and, eq, inArray, sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { insertPlaceholders, statement } from '@/db/statements';
import { events, webhookDeliveries, webhooks, webhookTriggers } from '@/db/schema';
import { onCommit, takePendingWrites, withTransaction, type ServiceContext } from '@/server/context';
import { unsafeJsonPlaces } from '@/server/core/json';
import { AppError } from '@/server/errors';
import { announceNewWork } from './work-notifier';
import { sendOnce, SYNC_TIMEOUT_MS } from '@/server/webhooks/send';
import { type EventName } from '@/server/core/event-names';

export type Hook = { id: number; url: string; configurationId: number | null; headers: Record<string, string>; strategy: 'after' | 'handle' | 'before' };

async function hooksFor(db: Queryable, projectId: number, event: EventName): Promise<Hook[]> {
  return db
    .select({ id: webhooks.id, url: webhooks.url, configurationId: webhooks.configurationId, headers: webhooks.headers, strategy: webhookTriggers.strategy })
    .from(webhookTriggers)
    .innerJoin(webhooks, eq(webhooks.id, webhookTriggers.webhookId))
    .where(and(eq(webhookTriggers.projectId, projectId), eq(webhookTriggers.event, event), eq(webhooks.enabled, true)));
}

function hooksQuery(db: Queryable, project: SQL, names: (EventName | Placeholder)[]) {
  return db
    .select({
      projectId: webhookTriggers.projectId,
      event: webhookTriggers.event,
      id: webhooks.id,
      url: webhooks.url,
      configurationId: webhooks.configurationId,
      headers: webhooks.headers,
      strategy: webhookTriggers.strategy,
    })
    .from(webhookTriggers)
    .innerJoin(webhooks, eq(webhooks.id, webhookTriggers.webhookId))
    .where(and(project, inArray(webhookTriggers.event, names), eq(webhooks.enabled, true)));
}

/** The enabled triggers of several projects and events in one query (the scheduler's batches). */
export async function hooksForEvents(db: Queryable, projectIds: number[], names: EventName[]) {
  if (projectIds.length === 0) return [];
  return hooksQuery(db, inArray(webhookTriggers.projectId, projectIds), names);
}

/** The enabled triggers of one project's events (an operation's and its consequences'), built once per number of events. */
const projectHooks = statement((db: Queryable, n: number) =>
  hooksQuery(
    db,
    eq(webhookTriggers.projectId, sql.placeholder('projectId')),
    Array.from({ length: n }, (_, i) => sql.placeholder(`event${i}`)),
  ).prepare(`project_hooks_${n}`),
);

/**
 * The enabled webhooks of `names` in the project `projectId` as a JSON array, a column for the first
 * statement of a transaction that will record those events: with `rememberHooks` the events need no
 * query of their own for their webhooks.
 */
export function hooksJson(projectId: SQL | Column, names: EventName[]): SQL<unknown> {
  return sql`coalesce((select json_agg(json_build_object('event', t.event, 'id', w.id, 'url', w.url, 'configurationId', w.configuration_id, 'headers', w.headers, 'strategy', t.strategy))
    from ${webhookTriggers} t join ${webhooks} w on w.id = t.webhook_id
    where t.project_id = ${projectId} and w.enabled and t.event in (${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )})), '[]'::json)`;
}

/** Keeps the webhooks `hooksJson` read for the rest of the transaction (recordEvents uses them). */
export function rememberHooks(tx: ServiceContext, names: EventName[], json: unknown): void {
  const rows = (typeof json === 'string' ? JSON.parse(json) : json) as (Hook & { event: string })[];
  for (const name of names) (tx.knownHooks ??= new Map()).set(name, rows.filter((h) => h.event === name));
}

/**
 * Why a `handle` answer cannot be the operation's output, or undefined when it can: it must be a JSON
 * object that may be stored (CONTRACT 7: anything else fails the call with 502 and changes nothing).
 */
function handleAnswerProblem(body: string, truncated: boolean): string | undefined {
  if (truncated) return 'the handle webhook answered more than 1 MiB';
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'the handle webhook did not answer JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'the handle webhook answered JSON that is not an object';
  const unsafe = unsafeJsonPlaces(value)[0];
  if (unsafe) return `the handle webhook's answer cannot be stored (${unsafe.path}: ${unsafe.message})`;
  return undefined;
}

/**
 * A synchronous call (`before` or `handle`), logged as a one-attempt delivery. Any failure fails the API
 * call with 502 webhook_failed; a `handle` answer must be JSON, and becomes the operation's output.
 */
async function callSync(ctx: ServiceContext, hook: Hook, event: EventName, body: Record<string, unknown>, calls: number[]): Promise<unknown> {
  const handle = hook.strategy === 'handle';
  const { result, failure, deliveryId } = await sendOnce(ctx.db, {
    projectId: ctx.projectId,
    webhook: hook,
    event,
    payload: JSON.stringify(body),
    now: ctx.clock(),
    timeoutMs: SYNC_TIMEOUT_MS,
    judge: handle ? (answered) => handleAnswerProblem(answered.body, answered.truncated) : undefined,
  });
  calls.push(deliveryId);
  if (failure) throw new AppError('webhook_failed', `The ${hook.strategy} webhook ${hook.id} failed: ${failure}`);
  return handle && result.ok ? JSON.parse(result.body) : undefined;
}

/**
 * The one path every operation with an event goes through (CONTRACT 7):
 * 1. `before` webhooks, synchronously; any failure aborts with 502 and nothing is stored;
 * 2. a `handle` webhook runs instead of the work, its JSON answer is the result;
 * 3. otherwise the work runs in one transaction that also records the event and one delivery row per
 *    `after` webhook, so deliveries exist exactly when the change committed; the executor is woken.
 * `onHandled` runs in that transaction when a handle webhook replaced the work (the scheduler notes
 * that the transition was taken over, so it is not fired again).
 */
export async function emit<T>(
  ctx: ServiceContext,
  name: EventName,
  params: Record<string, unknown>,
  work: (tx: ServiceContext) => Promise<T>,
  options: { onHandled?: (tx: ServiceContext) => Promise<void>; consequences?: EventName[] } = {},
): Promise<T> {
  // The webhooks of this event and of the events its work records as consequences, in one round trip.
  const names = [name, ...(options.consequences ?? [])];
  const all = await projectHooks.run(ctx.db, names.length, { projectId: ctx.projectId, ...Object.fromEntries(names.map((n, i) => [`event${i}`, n])) });
  const hooks: Hook[] = all.filter((h) => h.event === name);
  const base = { event: name, projectId: ctx.projectId, params };
  // The synchronous calls' deliveries, linked to the event once it is recorded (the event log shows them).
  const calls: number[] = [];
  for (const hook of hooks.filter((h) => h.strategy === 'before')) await callSync(ctx, hook, name, base, calls);
  const handle = hooks.find((h) => h.strategy === 'handle');
  const after = hooks.filter((h) => h.strategy === 'after');

  // The handle call happens outside the transaction: no lock is held while an integration answers.
  const handled = handle ? { output: (await callSync(ctx, handle, name, base, calls)) as T } : undefined;
  return withTransaction(ctx, async (tx) => {
    rememberHooks(tx, options.consequences ?? [], all);
    if (handled) await options.onHandled?.(tx);
    const output = handled ? handled.output : await work(tx);
    await recordEvents(tx, name, [{ params, responseData: output }], after, calls);
    return output;
  });
}

/** The columns of a queued delivery that recordEvents sets; the rest take their defaults. */
const QUEUED = ['projectId', 'webhookId', 'eventId', 'event', 'payload', 'nextAttemptAt'] as const satisfies readonly (keyof typeof webhookDeliveries.$inferInsert)[];

/** The insert of n deliveries, built once per n (db/statements). */
const insertDeliveries = statement((db: Queryable, n: number) =>
  db
    .insert(webhookDeliveries)
    .values(Array.from({ length: n }, (_, i) => insertPlaceholders<typeof webhookDeliveries>(QUEUED, i)))
    .returning({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId })
    .prepare(`delivery_insert_${n}`),
);

/** Links the synchronous calls' deliveries to the event the `recorded` CTE of the same statement inserts. */
const linkToRecorded = (calls: number[]) =>
  sql`update ${webhookDeliveries} set event_id = (select id from recorded) where id in (${sql.join(
    calls.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/**
 * Records events and queues their `after` deliveries in the caller's transaction (answers the events' ids), without before or
 * handle calls: for events that happen as a consequence of another operation (the activities a care plan
 * creates), which webhooks can observe but not veto. Any number of one event in two statements.
 * `calls`, the deliveries of one event's synchronous calls, are linked to it in the insert's statement.
 */
export async function recordEvents(
  ctx: ServiceContext,
  name: EventName,
  items: { params: Record<string, unknown>; responseData: unknown }[],
  afterHooks?: Hook[],
  calls: number[] = [],
): Promise<number[]> {
  if (items.length === 0) return [];
  if (calls.length > 0 && items.length !== 1) throw new Error('recordEvents links synchronous calls to one event only');
  const known = ctx.knownHooks?.get(name) as Hook[] | undefined;
  const after = afterHooks ?? (known ?? (await hooksFor(ctx.db, ctx.projectId, name))).filter((h) => h.strategy === 'after');
  const insert = sql`insert into ${events} (project_id, name, params, response_data) values ${sql.join(
    items.map((i) => sql`(${ctx.projectId}, ${name}, ${JSON.stringify(i.params)}::jsonb, ${i.responseData == null ? null : JSON.stringify(i.responseData)}::jsonb)`),
    sql`, `,
  )} returning id`;
  // The transaction's pending writes (its audit entry), and the link of the synchronous calls, go with this
  // insert: one round trip for all.
  const recorded = await ctx.db.execute(
    calls.length === 0
      ? sql`${takePendingWrites(ctx) ?? sql.empty()} ${insert}`
      : sql`${takePendingWrites(ctx, [['recorded', insert], ['linked', linkToRecorded(calls)]])} select id from recorded`,
  );
  const ids = rowsOf<{ id: number | string }>(recorded).map((r) => Number(r.id));
  if (after.length === 0) return ids;
  const now = ctx.clock();
  const rows = await insertDeliveries.run(
    ctx.db,
    items.length * after.length,
    items.flatMap((item, k) => {
      const payload = JSON.stringify({ event: name, projectId: ctx.projectId, params: item.params, responseData: item.responseData ?? null });
      return after.map((h) => ({ projectId: ctx.projectId, webhookId: h.id, eventId: ids[k]!, event: name, payload, nextAttemptAt: now }) satisfies Record<(typeof QUEUED)[number], unknown>);
    }),
  );
  onCommit(ctx, () => announceNewWork(rows.map((r) => ({ deliveryId: r.id, webhookId: r.webhookId }))));
  return ids;
}

