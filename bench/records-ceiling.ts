import http from 'node:http';
import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import { ceilingPool, listenCeiling } from './lib';

/**
 * The ceiling: a bare node:http server running the same SQL as the app (token lookup, actor lookup, the
 * read-scoped record query) through postgres.js with the same pool size, answering the same JSON.
 */
export function startCeiling(databaseUrl: string, port: number, poolMax: number, prepare = true): Promise<{ close: () => Promise<void> }> {
  const sql = ceilingPool(databaseUrl, poolMax, prepare);
  const iso = (d: Date) => d.toISOString();
  type Row = { id: number; type: string; member_id: number; fields: unknown; created_at: Date; updated_at: Date };
  const dto = (r: Row) => ({ id: r.id, type: r.type, memberId: r.member_id, fields: r.fields, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) });

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url!, 'http://x');
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const hash = createHash('sha256').update(token).digest('hex');
        const limit = 100;
        let rows: Row[];
        const typed = /^\/api\/v1\/record\/([^/]+)$/.exec(url.pathname);
        if (typed) {
          // The app resolves the key and the actor member in one query; so does the ceiling.
          const actorId = Number(url.searchParams.get('actorId'));
          const [key] = await sql<{ project_id: number; actor_id: number | null; actor_role: string | null }[]>`
            select k.project_id, k.integration_id, m.id as actor_id, m.role as actor_role
            from api_key k left join member m on m.project_id = k.project_id and m.id = ${actorId}
            where k.key_hash = ${hash} and k.revoked_at is null limit 1`;
          if (!key) return void res.writeHead(401).end();
          if (key.actor_id === null) return void res.writeHead(400).end();
          const projectId = key.project_id;
          rows = await sql<Row[]>`
            select id, project_id, type, member_id, fields, created_at, updated_at from record
            where project_id = ${projectId} and id > 0 and member_id = ${key.actor_id}
              and type in (select rt.type from record_type rt where rt.project_id = ${projectId}
                           and (rt.permissions -> ${key.actor_role}::text ->> 'read') = 'true')
              and type = ${typed[1]!}
            order by id asc limit ${limit + 1}`;
        } else {
          const [key] = await sql<{ project_id: number }[]>`
            select project_id, integration_id from api_key where key_hash = ${hash} and revoked_at is null limit 1`;
          if (!key) return void res.writeHead(401).end();
          const fields = url.searchParams.get('fields') ?? '{}';
          rows = await sql<Row[]>`
            select id, project_id, type, member_id, fields, created_at, updated_at from record
            where project_id = ${key.project_id} and id > 0 and fields @> ${sql.json(JSON.parse(fields) as postgres.JSONValue)}
            order by id asc limit ${limit + 1}`;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (rows.length > limit) {
          rows = rows.slice(0, limit);
          headers.link = `<${url.pathname}?cursor=${rows.at(-1)!.id}>; rel="next"`;
        }
        res.writeHead(200, headers).end(JSON.stringify(rows.map(dto)));
      } catch (e) {
        res.writeHead(500).end(String(e));
      }
    })();
  });
  return listenCeiling(server, port, sql);
}
