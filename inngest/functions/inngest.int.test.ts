import { InngestTestEngine } from '@inngest/test';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, webhookAttempts, webhookDeliveries } from '@/db/schema';
import { resetEnvForTests } from '@/server/env';
import { newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function pendingDelivery(path: string) {
  const project = await newProject();
  const webhook = (await project.api.post('/webhook', { display: 'I', url: `${receiver.url}${path}`, triggers: [{ event: 'member_create' }] })).body;
  await project.api.post('/member', { name: 'Via Inngest' });
  const [delivery] = await project.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
  return { ...project, webhook, delivery: delivery! };
}

describe('Inngest functions (CAREBASE_EXECUTOR=inngest)', () => {
  it('deliver-webhook runs the same job and records the attempt', async () => {
    const { deliverWebhook } = await import('./deliver-webhook');
    const { delivery, webhook, db } = await pendingDelivery('/inngest-ok');
    const t = new InngestTestEngine({ function: deliverWebhook });
    const { result } = await t.execute({ events: [{ name: 'carebase/delivery.created', data: { deliveryId: delivery.id, webhookId: webhook.id } }] });
    expect(result).toEqual({ deliveryId: delivery.id, outcome: 'delivered' });
    expect(receiver.received.filter((r) => r.path === '/inngest-ok')).toHaveLength(1);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(row).toMatchObject({ status: 'delivered', attemptCount: 1, leaseUntil: null });
    // A second announcement of the same delivery does not send it again.
    const again = await new InngestTestEngine({ function: deliverWebhook }).execute({
      events: [{ name: 'carebase/delivery.created', data: { deliveryId: delivery.id, webhookId: webhook.id } }],
    });
    expect(again.result).toEqual({ deliveryId: delivery.id, outcome: 'skipped' });
    expect(receiver.received.filter((r) => r.path === '/inngest-ok')).toHaveLength(1);
  });

  it('deliver-webhook sleeps until the row says, then retries', async () => {
    const { deliverWebhook } = await import('./deliver-webhook');
    let calls = 0;
    receiver.setReply((r) => (r.path === '/inngest-retry' && ++calls === 1 ? { status: 503 } : {}));
    const { delivery, webhook, db } = await pendingDelivery('/inngest-retry');
    const t = new InngestTestEngine({
      function: deliverWebhook,
      steps: [
        {
          id: 'wait-1',
          // Stands in for the sleep: time passes until the retry is due.
          handler: async () => {
            await db.update(webhookDeliveries).set({ nextAttemptAt: new Date() }).where(eq(webhookDeliveries.id, delivery.id));
          },
        },
      ],
    });
    const { result } = await t.execute({ events: [{ name: 'carebase/delivery.created', data: { deliveryId: delivery.id, webhookId: webhook.id } }] });
    expect(result).toEqual({ deliveryId: delivery.id, outcome: 'delivered' });
    const got = receiver.received.filter((r) => r.path === '/inngest-retry');
    expect(got).toHaveLength(2);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
    receiver.setReply(() => ({}));
  });

  it('deliver-webhook cuts a call at half the lease, so the row cannot be claimed again while the call is out', async () => {
    const { deliverNamed } = await import('@/server/jobs/attempt-delivery');
    receiver.setReply((r) => (r.path === '/inngest-slow' ? { delayMs: 4_000 } : {}));
    try {
      const { delivery, db } = await pendingDelivery('/inngest-slow');
      const startedAt = Date.now();
      // The step the function runs, with a 2 s lease (EXECUTOR_LEASE_MS): the call stops at 1 s.
      const { outcome, nextAttemptAt } = await deliverNamed(db, delivery.id, 2_000);
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect(outcome).toBe('retry');
      expect(nextAttemptAt).not.toBeNull();
      const [attempt] = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
      expect(attempt).toMatchObject({ attempt: 1, statusCode: null, error: 'timed out after 1 s' });
    } finally {
      receiver.setReply(() => ({}));
    }
  });

  it('sweep-due-work announces deliveries nobody took', async () => {
    const { sweepDueWork } = await import('./sweep');
    const { delivery, webhook, db } = await pendingDelivery('/inngest-sweep');
    // The sweep looks at the whole database, oldest first; on a shared one this row must come first.
    await db.update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.UTC(2000, 0, 1)) }).where(eq(webhookDeliveries.id, delivery.id));
    const t = new InngestTestEngine({
      function: sweepDueWork,
      events: [{ name: 'inngest/scheduled.timer', data: { cron: '* * * * *' } }],
      // Sending needs an Inngest server: every send the sweep may make is mocked (on a shared database it
      // also finds due activities that other tests left) and the call inspected.
      steps: [
        { id: 'announce', handler: () => ({ ids: [] }) },
        { id: 'announce-activities', handler: () => ({ ids: [] }) },
      ],
    });
    const { result, ctx } = await t.execute();
    expect((result as { announced: number }).announced).toBeGreaterThanOrEqual(1);
    expect(ctx.step.sendEvent).toHaveBeenCalledWith(
      'announce',
      expect.arrayContaining([expect.objectContaining({ name: 'carebase/delivery.created', data: { deliveryId: delivery.id, webhookId: webhook.id } })]),
    );
  });

  it('sweep-due-work announces each due activity once per firing, and run-transition applies it', async () => {
    const { sweepDueWork } = await import('./sweep');
    const { runTransition } = await import('./run-transition');
    const { api, projectId, db } = await newProject();
    const member = (await api.post('/member', { name: 'Due' })).body;
    const def = (await api.post('/careplan-definition', { slug: 'd', title: 'D', actions: [{ key: 'x', type: 'call', display: 'Due now', start: { offset: 0, offsetUnit: 's' } }] })).body;
    const careplan = (await api.post('/careplan', { definitionId: def.id, subjectId: member.id })).body;
    const activityId = careplan.activities[0].id as number;
    const longAgo = new Date(Date.UTC(2000, 0, 1)); // oldest first, so it is in the sweep on a shared database too
    await db.update(activities).set({ nextDueAt: longAgo, activateAt: longAgo }).where(eq(activities.id, activityId));

    const sweep = new InngestTestEngine({
      function: sweepDueWork,
      events: [{ name: 'inngest/scheduled.timer', data: { cron: '* * * * *' } }],
      steps: [
        { id: 'announce', handler: () => ({ ids: [] }) },
        { id: 'announce-activities', handler: () => ({ ids: [] }) },
      ],
    });
    const { ctx } = await sweep.execute();
    const announce = (ctx.step.sendEvent as unknown as { mock: { calls: [string, { id: string; name: string; data: unknown }[]][] } }).mock.calls.find((c) => c[0] === 'announce-activities');
    const mine = announce![1].find((e) => (e.data as { activityId: number }).activityId === activityId)!;
    expect(mine).toMatchObject({ name: 'carebase/activity.due', data: { activityId, projectId } });
    expect(mine.id).toMatch(new RegExp(`^activity-${activityId}-0-\\d+-0$`));

    const run = new InngestTestEngine({ function: runTransition });
    const { result } = await run.execute({ events: [{ name: 'carebase/activity.due', data: { activityId, projectId } }] });
    expect(result).toMatchObject({ applied: 1 });
    expect((await api.get(`/activity/${activityId}`)).body.status).toBe('scheduled');
    const again = await new InngestTestEngine({ function: runTransition }).execute({ events: [{ name: 'carebase/activity.due', data: { activityId, projectId } }] });
    expect(again.result).toMatchObject({ applied: 0 });
  });

  it('serves the functions at /api/inngest', async () => {
    process.env.INNGEST_DEV = '1';
    resetEnvForTests();
    const { GET } = await import('@/app/api/inngest/route');
    const res = await GET(new Request('http://127.0.0.1:3000/api/inngest') as never, undefined as never);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ function_count: 3 });
  });
});
