import http from 'node:http';
import { createHash } from 'node:crypto';
import postgres from 'postgres';

/**
 * The ceiling: a bare node:http server running the same SQL as the app (token lookup, actor lookup, the
 * read-scoped record query) through postgres.js with the same pool size, answering the same JSON.
 */
export function startCeiling(databaseUrl: string, port: number, poolMax: number, prepare = true): Promise<{ close: () => Promise<void> }> {
  const sql = postgres(databaseUrl, { max: poolMax, onnotice: () => {}, prepare });
  const iso = (d: Date) => d.toISOString();
  type Row = { id: number; type: string; member_id: number; fields: unknown; created_at: Date; updated_at: Date };
  const dto = (r: Row) => ({ id: r.id, type: r.type, memberId: r.member_id, fields: r.fields, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) });

  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        const url = new URL(req.url!, 'http://x');
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const [key] = await sql<{ project_id: number }[]>`
          select project_id, integration_id from api_key
          where key_hash = ${createHash('sha256').update(token).digest('hex')} and revoked_at is null limit 1`;
        if (!key) return void res.writeHead(401).end();
        const projectId = key.project_id;
        const limit = 100;
        let rows: Row[];
        const typed = /^\/api\/v1\/record\/([^/]+)$/.exec(url.pathname);
        if (typed) {
          const actorId = Number(url.searchParams.get('actorId'));
          const [actor] = await sql<{ id: number; role: string }[]>`
            select id, role from member where id = ${actorId} and project_id = ${projectId} limit 1`;
          if (!actor) return void res.writeHead(400).end();
          rows = await sql<Row[]>`
            select id, project_id, type, member_id, fields, created_at, updated_at from record
            where project_id = ${projectId} and id > 0 and member_id = ${actor.id}
              and type in (select type from record_type where project_id = ${projectId}
                           and (permissions -> ${actor.role} ->> 'read') = 'true')
              and type = ${typed[1]!}
            order by id asc limit ${limit + 1}`;
        } else {
          const fields = url.searchParams.get('fields') ?? '{}';
          rows = await sql<Row[]>`
            select id, project_id, type, member_id, fields, created_at, updated_at from record
            where project_id = ${projectId} and id > 0 and fields @> ${sql.json(JSON.parse(fields) as postgres.JSONValue)}
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
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: async () => {
          await new Promise((r) => server.close(r));
          await sql.end({ timeout: 5 });
        },
      }),
    ),
  );
}
