/**
 * A server stand-in for the crash test: `produce <receiverUrl> <webhooks> <members>` seeds a project whose
 * member_create fans out to N webhooks and runs the embedded executor until killed; `drain` runs the
 * executor until nothing is pending, then prints every delivery as JSON and exits.
 */
import { eq, sql } from 'drizzle-orm';
import { closeDb, getDb, migrateDb } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { createContext } from '@/server/context';
import { startEmbeddedExecutor, stopExecutor } from '@/server/executor';
import { createMember } from '@/server/services/members/members';
import { createProject } from '@/server/services/projects/projects';
import { createWebhook } from '@/server/services/webhooks/webhooks';

const [mode, receiverUrl, webhookCount, memberCount] = process.argv.slice(2);

async function produce() {
  await migrateDb();
  const db = await getDb();
  const { projectId } = await db.transaction((tx) => createProject(tx, { name: 'Crash test' }));
  const ctx = createContext(db, projectId, { kind: 'system', role: 'admin' });
  for (let i = 0; i < Number(webhookCount); i++) {
    await createWebhook(ctx, { display: `w${i}`, url: `${receiverUrl}/w${i}`, triggers: [{ event: 'member_create' }] });
  }
  // Said first: the test may kill this process as soon as deliveries arrive.
  console.log(JSON.stringify({ projectId }));
  for (let i = 0; i < Number(memberCount); i++) await createMember(ctx, { name: `m${i}` });
  startEmbeddedExecutor();
  await new Promise(() => {}); // until killed
}

async function drain() {
  const db = await getDb();
  startEmbeddedExecutor();
  const projectId = Number(receiverUrl);
  for (;;) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.projectId} = ${projectId} and ${webhookDeliveries.status} = 'pending'`);
    if (row!.n === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopExecutor();
  const rows = await db.select({ id: webhookDeliveries.id, status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.projectId, projectId));
  console.log(JSON.stringify(rows));
  await closeDb();
  process.exit(0);
}

void (mode === 'produce' ? produce() : drain());
