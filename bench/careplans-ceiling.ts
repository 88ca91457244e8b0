import http from 'node:http';
import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import { ceilingPool, listenCeiling } from './lib';
import { startOfDateIn } from '@/server/core/offsets';
import { nextDueAt, pendingReminderAt } from '@/server/services/activities/lifecycle';
import { scheduleAction } from '@/server/services/activities/schedule';
import type { DefinitionAction } from '@/db/schema';

/**
 * The ceiling of the care plan writes: a bare node:http server running the statements the app runs for
 * POST /careplan, POST /careplan-parameter and PATCH /careplan-parameter/<id> (bench/results/
 * careplans-statements.txt lists the app's), in the same transactions, through postgres.js with the same
 * pool, with the activities' times computed by the same functions. No validation, no DTO mapping, no
 * events' JSON beyond what the rows need, no framework: what is left is PostgreSQL and HTTP.
 */
export function startCareplansCeiling(databaseUrl: string, port: number, poolMax: number): Promise<{ close: () => Promise<void> }> {
  const sql = ceilingPool(databaseUrl, poolMax);
  type Key = { id: number; project_id: number; integration_id: number };
  type Activity = Record<string, unknown> & { id: number; action_key: string; status: string; reminders: unknown; reminder_index: number; activate_at: Date; end_at: Date | null; handled_transitions: string[] };

  const auth = async (req: http.IncomingMessage): Promise<Key | undefined> => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [key] = await sql<Key[]>`
      select id, project_id, integration_id, last_used_at from api_key
      where key_hash = ${createHash('sha256').update(token).digest('hex')} and revoked_at is null and (expires_at is null or expires_at > now()) limit 1`;
    return key;
  };
  const body = (req: http.IncomingMessage) =>
    new Promise<Record<string, unknown>>((resolve) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => resolve(JSON.parse(text || '{}') as Record<string, unknown>));
    });
  const audit = (tx: postgres.TransactionSql, key: Key, action: string, resource: string, id: number, changes: unknown) =>
    tx`insert into audit_event (project_id, actor_type, actor_id, actor_key_id, action, resource, resource_id, changes, request_id, created_at)
       values (${key.project_id}, 'integration', ${key.integration_id}, ${key.id}, ${action}, ${resource}, ${id}, ${tx.json(changes as postgres.JSONValue)}, ${'ceiling'}, now())`;
  const events = (tx: postgres.TransactionSql, projectId: number, name: string, items: { params: unknown; data: unknown }[]) =>
    tx`insert into event ${tx(items.map((i) => ({ project_id: projectId, name, params: tx.json(i.params as postgres.JSONValue), response_data: tx.json(JSON.parse(JSON.stringify(i.data)) as postgres.JSONValue) })) as never)} returning id`;
  const activityRows = (c: { id: number; project_id: number; subject_id: number }, actions: DefinitionAction[], anchor: Date, inputId: number | null, timeZone: string) =>
    actions.map((a) => {
      const t = scheduleAction(a, anchor, timeZone);
      return {
        project_id: c.project_id,
        careplan_id: c.id,
        subject_id: c.subject_id,
        action_key: a.key,
        input_id: inputId,
        kind: a.kind ?? 'task',
        type: a.type,
        display: a.display,
        actor_type: a.actorType ?? 'subject',
        reminders: sql.json((a.reminders ?? []) as postgres.JSONValue),
        activate_at: t.activateAt,
        end_at: t.endAt,
        remind_at: t.remindAt,
        next_due_at: t.nextDueAt,
      };
    });

  async function enrol(key: Key, input: { definitionId: number; subjectId: number }) {
    const [found] = await sql<{ id: number; slug: string; version_id: number; version: number; title: string; actions: DefinitionAction[]; time_zone: string; input_ids: number[]; subject_found: boolean }[]>`
      select d.id, d.slug, v.id as version_id, v.version, v.title, v.actions, p.time_zone,
             array(select i.id from careplan_definition_input i where i.version_id = v.id order by i.id) as input_ids,
             exists(select 1 from member m where m.id = ${input.subjectId} and m.project_id = ${key.project_id}) as subject_found
      from careplan_definition d
      join careplan_definition_version v on v.definition_id = d.id and v.version = d.latest_version
      join project p on p.id = d.project_id
      where d.project_id = ${key.project_id} and d.id = ${input.definitionId}`;
    if (!found?.subject_found) return undefined;
    await sql`select t.project_id, t.event, w.id, w.url, w.configuration_id, w.headers, t.strategy
      from webhook_trigger t join webhook w on w.id = t.webhook_id
      where t.project_id in (${key.project_id}) and t.event in ('careplan_create', 'activity_create') and w.enabled`;
    return sql.begin(async (tx) => {
      const [c] = await tx<{ id: number; project_id: number; subject_id: number; created_at: Date }[]>`
        insert into careplan (project_id, definition_id, version_id, version, subject_id, title, created_at, updated_at)
        values (${key.project_id}, ${found.id}, ${found.version_id}, ${found.version}, ${input.subjectId}, ${found.title}, now(), now()) returning *`;
      const parameters = await tx`insert into careplan_parameter ${tx(found.input_ids.map((inputId) => ({ careplan_id: c!.id, input_id: inputId })))} returning *`;
      const rows = activityRows(c!, found.actions.filter((a) => !a.inputKey), c!.created_at, null, found.time_zone);
      const created = rows.length > 0 ? await tx<Activity[]>`insert into activity ${tx(rows as never)} returning *` : [];
      await events(tx, key.project_id, 'activity_create', created.map((a) => ({ params: { careplanId: c!.id, actionKey: a.action_key }, data: a })));
      const plan = { ...c, parameters, activities: created };
      await tx`with a as (${audit(tx, key, 'create', 'careplan', c!.id, { title: { before: null, after: found.title } })})
        insert into event (project_id, name, params, response_data) values (${key.project_id}, 'careplan_create', ${tx.json(input)}, ${tx.json(JSON.parse(JSON.stringify(plan)) as postgres.JSONValue)}) returning id`;
      return plan;
    });
  }

  /** A date change: the plan locked with its actions and webhooks, the slot, the observation, the activities. */
  async function changeDate(key: Key, where: { careplanId: number; inputId: number } | { parameterId: number }, value: string, observedAt: string) {
    return sql.begin(async (tx) => {
      const hooks = tx`coalesce((select json_agg(json_build_object('event', t.event, 'id', w.id, 'url', w.url, 'strategy', t.strategy))
        from webhook_trigger t join webhook w on w.id = t.webhook_id
        where t.project_id = c.project_id and w.enabled and t.event in ('activity_create', 'activity_update')), '[]'::json)`;
      const planWhere = 'parameterId' in where ? tx`c.id = (select careplan_id from careplan_parameter where id = ${where.parameterId})` : tx`c.id = ${where.careplanId}`;
      const [c] = await tx<{ id: number; project_id: number; subject_id: number; version_id: number; status: string; actions: DefinitionAction[]; time_zone: string }[]>`
        select c.*, v.actions, p.time_zone, ${hooks} as hooks from careplan c
        join careplan_definition_version v on v.id = c.version_id join project p on p.id = c.project_id
        where ${planWhere} and c.project_id = ${key.project_id} for update of c`;
      if (!c) return undefined;
      const slotWhere = 'parameterId' in where ? tx`cp.id = ${where.parameterId}` : tx`i.id = ${where.inputId}`;
      const [slot] = await tx<{ input_id: number; key: string; observation_code_id: number; code_type: string; parameter_id: number | null; before: string | null }[]>`
        select i.id as input_id, i.key, i.observation_code_id, oc.type as code_type, cp.id as parameter_id, o.value as before
        from careplan_definition_input i join observation_code oc on oc.id = i.observation_code_id
        left join careplan_parameter cp on cp.careplan_id = ${c.id} and cp.input_id = i.id
        left join observation o on o.id = cp.observation_id
        where i.version_id = ${c.version_id} and ${slotWhere}`;
      if (!slot) return undefined;
      const [obs] = await tx<{ id: number }[]>`
        insert into observation (project_id, subject_id, observation_code_id, value, observed_at)
        values (${c.project_id}, ${c.subject_id}, ${slot.observation_code_id}, ${value}, ${observedAt}) returning *`;
      const parameterId =
        slot.parameter_id ??
        (await tx<{ id: number }[]>`insert into careplan_parameter (careplan_id, input_id, observation_id) values (${c.id}, ${slot.input_id}, ${obs!.id}) returning id`)[0]!.id;
      if (slot.parameter_id) await tx`update careplan_parameter set observation_id = ${obs!.id}, updated_at = now() where id = ${parameterId}`;
      const auditEntry = audit(tx, key, slot.parameter_id ? 'update' : 'create', 'careplan-parameter', parameterId, { observationId: { before: null, after: obs!.id } });
      const anchor = startOfDateIn(value, c.time_zone);
      const existing = await tx<Activity[]>`select * from activity where careplan_id = ${c.id} and input_id = ${slot.input_id} order by id`;
      const actions = c.actions.filter((a) => a.inputKey === slot.key);
      let changed: Activity[];
      let name: string;
      if (existing.length === 0) {
        changed = await tx<Activity[]>`insert into activity ${tx(activityRows(c, actions, anchor, slot.input_id, c.time_zone) as never)} returning *`;
        name = 'activity_create';
      } else {
        const moves = existing
          .filter((a) => a.status === 'proposed' || a.status === 'scheduled')
          .map((a) => {
            const { activateAt, endAt } = scheduleAction(actions.find((x) => x.key === a.action_key)!, anchor, c.time_zone);
            const remindAt = pendingReminderAt({ reminders: a.reminders, reminderIndex: a.reminder_index, status: a.status } as Parameters<typeof pendingReminderAt>[0], activateAt, c.time_zone);
            const next = nextDueAt({ status: a.status, handledTransitions: a.handled_transitions, activateAt, endAt, remindAt } as Parameters<typeof nextDueAt>[0]);
            return { id: a.id, activateAt, endAt, remindAt, nextDueAt: next };
          });
        const when = (f: (m: (typeof moves)[number]) => Date | null) =>
          tx.unsafe(`case id ${moves.map((m) => `when ${m.id} then ${f(m) ? `'${f(m)!.toISOString()}'` : 'null'}::timestamptz`).join(' ')} end`);
        changed = await tx<Activity[]>`update activity set activate_at = ${when((m) => m.activateAt)}, end_at = ${when((m) => m.endAt)},
          remind_at = ${when((m) => m.remindAt)}, next_due_at = ${when((m) => m.nextDueAt)}, updated_at = now()
          where id in ${tx(moves.map((m) => m.id))} returning *`;
        name = 'activity_update';
      }
      await tx`with a as (${auditEntry}) ${events(tx, c.project_id, name, changed.map((a) => ({ params: { id: a.id }, data: a })))}`;
      return { id: parameterId, careplanId: c.id, inputId: slot.input_id, observationId: obs!.id };
    });
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        const key = await auth(req);
        if (!key) return void res.writeHead(401).end();
        const input = await body(req);
        const patch = /^\/api\/v1\/careplan-parameter\/(\d+)$/.exec(req.url ?? '');
        const observation = input.observation as { value: string; observedAt: string } | undefined;
        const result =
          req.url === '/api/v1/careplan'
            ? await enrol(key, input as { definitionId: number; subjectId: number })
            : req.url === '/api/v1/careplan-parameter'
              ? await changeDate(key, { careplanId: Number(input.careplanId), inputId: Number(input.inputId) }, observation!.value, observation!.observedAt)
              : patch
                ? await changeDate(key, { parameterId: Number(patch[1]) }, observation!.value, observation!.observedAt)
                : undefined;
        if (!result) return void res.writeHead(404).end('{}');
        res.writeHead(req.method === 'PATCH' ? 200 : 201, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      } catch (e) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
      }
    })();
  });
  return listenCeiling(server, port, sql);
}
