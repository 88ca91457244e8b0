/**
 * A server stand-in for the scheduler crash test.
 * `produce <receiverUrl> <gated> <plain>` seeds a project with `gated` activities whose scheduled transition
 * has a `before` webhook (they run one by one, outside the batch) and `plain` activities that expire in
 * batches, all already due, then runs the embedded executor until killed.
 * `drain <projectId>` runs the executor until nothing is due, then prints each activity's status, firing
 * count and number of transition events as JSON.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { closeDb, getDb, migrateDb } from '@/db/client';
import { activities, events } from '@/db/schema';
import { createContext } from '@/server/context';
import { startEmbeddedExecutor, stopExecutor } from '@/server/executor';
import { createProject } from '@/server/services/projects/projects';
import { createWebhook } from '@/server/services/webhooks/webhooks';
import { careplanForBulkActivities } from './careplan-fixture';

const [mode, arg, gated, plain] = process.argv.slice(2);

async function produce() {
  await migrateDb();
  const db = await getDb();
  const { projectId } = await db.transaction((tx) => createProject(tx, { name: 'Scheduler crash test' }));
  const ctx = createContext(db, projectId, { kind: 'system', role: 'admin' });
  const { member, careplan } = await careplanForBulkActivities(ctx, 'crash');
  await createWebhook(ctx, { display: 'gate', url: `${arg}/gate`, triggers: [{ event: 'activity_transition_scheduled', strategy: 'before' }] });
  await createWebhook(ctx, { display: 'after', url: `${arg}/after`, triggers: [{ event: 'activity_transition_expired' }] });
  const past = new Date(Date.now() - 60_000);
  const row = (i: number, expires: boolean) => ({
    projectId,
    careplanId: careplan.id,
    subjectId: member.id,
    type: 'task',
    display: `a${i}`,
    activateAt: expires ? new Date(past.getTime() - 60_000) : past,
    endAt: expires ? past : null,
    nextDueAt: expires ? new Date(past.getTime() - 60_000) : past,
  });
  const rows = [...Array.from({ length: Number(gated) }, (_, i) => row(i, false)), ...Array.from({ length: Number(plain) }, (_, i) => row(i, true))];
  for (let i = 0; i < rows.length; i += 500) await db.insert(activities).values(rows.slice(i, i + 500));
  console.log(JSON.stringify({ projectId }));
  startEmbeddedExecutor();
  await new Promise(() => {}); // until killed
}

async function drain() {
  const db = await getDb();
  const projectId = Number(arg);
  startEmbeddedExecutor();
  for (;;) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(activities)
      .where(and(eq(activities.projectId, projectId), isNotNull(activities.nextDueAt), sql`${activities.nextDueAt} <= now()`));
    if (row!.n === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopExecutor();
  const fired = await db
    .select({ id: sql<number>`(${events.params}->>'id')::int`, n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(eq(events.projectId, projectId), sql`${events.name} like 'activity_transition_%'`))
    .groupBy(sql`1`);
  const eventsOf = new Map(fired.map((f) => [f.id, f.n]));
  const rows = (
    await db
      .select({ id: activities.id, status: activities.status, seq: activities.transitionSeq })
      .from(activities)
      .where(and(eq(activities.projectId, projectId), sql`${activities.display} like 'a%'`))
  ).map((r) => ({ ...r, events: eventsOf.get(r.id) ?? 0 }));
  console.log(JSON.stringify(rows));
  await closeDb();
  process.exit(0);
}

void (mode === 'produce' ? produce() : drain());
