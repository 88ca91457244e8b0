import postgres from 'postgres';

/**
 * Where postgres.js should connect for a `DATABASE_URL`. libpq's `host` query parameter is honoured as libpq
 * honours it: a path names the directory of PostgreSQL's Unix socket
 * (`postgres://carebase@localhost/carebase?host=/var/run/postgresql`, or `postgres:///carebase?host=...`),
 * anything else the host to connect to. postgres.js itself would send `host` to the server as a setting,
 * which refuses to start the session (FATAL 42704).
 */
export function postgresTarget(url: string): { url: string; path?: string } {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host');
  if (host === null) return { url };
  parsed.searchParams.delete('host');
  if (host.startsWith('/')) return { url: parsed.toString(), path: `${host.replace(/\/+$/, '')}/.s.PGSQL.${parsed.port || 5432}` };
  parsed.hostname = host;
  return { url: parsed.toString() };
}

/**
 * A postgres.js client for a `DATABASE_URL`, over the Unix socket when the URL names one (postgresTarget).
 * Every connection to the database the app is configured with goes through here.
 */
export function postgresClient(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> = {}): postgres.Sql {
  const target = postgresTarget(url);
  return postgres(target.url, { ...options, path: target.path });
}
