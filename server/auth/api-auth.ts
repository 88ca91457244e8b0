import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { getDbHandle, type Db } from '@/db/client';
import { apiKeys, memberTokens, members } from '@/db/schema';
import { createContext, type Actor, type ServiceContext } from '@/server/context';
import { Semaphore, type SemaphoreState } from '@/server/core/semaphore';
import { AppError, unavailable } from '@/server/errors';
import { consumeTokenRequest, failedAuthentication } from './rate-limits';
import { hashToken } from '@/server/core/crypto';

/** Who holds the token; `credential` names the key or token itself (limits and idempotency are per credential). */
export type Principal =
  | { kind: 'integration'; projectId: number; integrationId: number; credential: string }
  | { kind: 'member'; projectId: number; memberId: number; role: string; credential: string };

const unauthenticated = (detail: string) => new AppError('unauthenticated', detail);

const QUERY_TOKEN_PARAMS = ['access_token', 'token', 'apiKey'];

/** Tokens in the query string are refused, even beside a valid header: they leak into logs (CONTRACT 2). */
export function refuseTokensInQuery(url: URL): void {
  if (QUERY_TOKEN_PARAMS.some((p) => url.searchParams.has(p))) {
    throw unauthenticated('Tokens in the query string are refused; send Authorization: Bearer <token>');
  }
}

/** Reads `Authorization: Bearer`. */
export function readBearer(headers: Headers, url: URL): string {
  refuseTokensInQuery(url);
  const header = headers.get('authorization');
  if (!header) throw unauthenticated('Missing Authorization header');
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{16,512})$/.exec(header.trim());
  if (!match?.[1]) throw unauthenticated('Malformed Authorization header; expected Bearer <token>');
  return match[1];
}

/**
 * Every API request runs one of these, so they are prepared statements (planned once per connection) and
 * an integration key is resolved together with its `actorId` member in a single round trip.
 */
function buildStatements(db: Db) {
  return {
    memberToken: db
      .select({ id: memberTokens.id, projectId: memberTokens.projectId, memberId: memberTokens.memberId, role: members.role })
      .from(memberTokens)
      .innerJoin(members, eq(members.id, memberTokens.memberId))
      .where(and(eq(memberTokens.tokenHash, sql.placeholder('hash')), isNull(memberTokens.revokedAt)))
      .limit(1)
      .prepare('auth_member_token'),
    apiKey: db
      .select({ id: apiKeys.id, projectId: apiKeys.projectId, integrationId: apiKeys.integrationId, lastUsedAt: apiKeys.lastUsedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt), keyNotExpired))
      .limit(1)
      .prepare('auth_api_key'),
    apiKeyWithActor: db
      .select({
        id: apiKeys.id,
        projectId: apiKeys.projectId,
        integrationId: apiKeys.integrationId,
        lastUsedAt: apiKeys.lastUsedAt,
        actorId: members.id,
        actorRole: members.role,
      })
      .from(apiKeys)
      .leftJoin(members, and(eq(members.projectId, apiKeys.projectId), eq(members.id, sql.placeholder('actorId'))))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt), keyNotExpired))
      .limit(1)
      .prepare('auth_api_key_actor'),
    /** At most once a minute per key, however many requests or instances use it (CONTRACT 11). */
    touchApiKey: db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, sql.placeholder('id')), or(isNull(apiKeys.lastUsedAt), sql`${apiKeys.lastUsedAt} < now() - interval '1 minute'`)))
      .prepare('auth_touch_api_key'),
  };
}

const keyNotExpired = or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`));
const LAST_USED_PRECISION_MS = 60_000;

/** Notes that a key was used, when what is stored is older than a minute: one write a minute per key at most. */
async function touchKey(db: Db, row: { id: number; lastUsedAt: Date | null }): Promise<void> {
  if (row.lastUsedAt && Date.now() - row.lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
  await statementsFor(db).touchApiKey.execute({ id: row.id });
}

const statements = new WeakMap<Db, ReturnType<typeof buildStatements>>();
function statementsFor(db: Db) {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = buildStatements(db)));
  return s;
}

const unknownActor = () =>
  new AppError('invalid_request', 'The request is invalid', [{ path: 'actorId', message: 'No member with this id in the project' }]);

/**
 * Who is calling and who the request is evaluated as. An integration key acts as admin, or as the member
 * named by `actorId`; a member token acts as its member and may only name itself.
 */
export async function authenticate(db: Db, token: string, actorId: number | undefined): Promise<{ principal: Principal; actor: Actor }> {
  const hash = hashToken(token);
  const s = statementsFor(db);
  if (token.startsWith('cb_mem_')) {
    const [row] = await s.memberToken.execute({ hash });
    if (!row) throw unauthenticated('Unknown or revoked token');
    if (actorId !== undefined && actorId !== row.memberId) {
      throw new AppError('forbidden', 'A member token may only act as its own member');
    }
    return {
      principal: { kind: 'member', projectId: row.projectId, memberId: row.memberId, role: row.role, credential: `member-token:${row.id}` },
      actor: { kind: 'member', memberId: row.memberId, role: row.role },
    };
  }
  if (actorId === undefined) {
    const [row] = await s.apiKey.execute({ hash });
    if (!row) throw unauthenticated('Unknown, revoked or expired token');
    await touchKey(db, row);
    return {
      principal: { kind: 'integration', projectId: row.projectId, integrationId: row.integrationId, credential: `key:${row.id}` },
      actor: { kind: 'integration', integrationId: row.integrationId, role: 'admin', keyId: row.id },
    };
  }
  const [row] = await s.apiKeyWithActor.execute({ hash, actorId });
  if (!row) throw unauthenticated('Unknown, revoked or expired token');
  await touchKey(db, row);
  const principal: Principal = { kind: 'integration', projectId: row.projectId, integrationId: row.integrationId, credential: `key:${row.id}` };
  if (row.actorId === null || row.actorRole === null) throw unknownActor();
  return { principal, actor: { kind: 'member', memberId: row.actorId, role: row.actorRole, keyId: row.id } };
}

let gate: Semaphore | undefined;

/** How long a request may wait for a database slot before it is refused (503) rather than queued. */
const slotWaitMs = (statementTimeoutMs: number) => Math.min(1_000, statementTimeoutMs);

let refusedSinceLog = 0;
let lastRefusalLog = 0;

/**
 * A request refused for want of a database slot: 503, and a line in the log (at most one a second,
 * counting the refusals since the last) saying how the slots stood, so that an operator can tell a
 * database that holds every slot for long (a stall, a lock) from more requests than slots.
 */
function refusedForBusyDatabase(state: SemaphoreState, waitedMs: number): AppError {
  refusedSinceLog++;
  const now = Date.now();
  if (now - lastRefusalLog >= 1_000) {
    console.warn(
      `[db-gate] ${refusedSinceLog} request(s) refused (503) after waiting ${waitedMs} ms for a database slot: ` +
        `${state.active} of ${state.capacity} slots held, the oldest for ${state.oldestHeldMs} ms; ${state.queued} still waiting`,
    );
    refusedSinceLog = 0;
    lastRefusalLog = now;
  }
  return unavailable('The database is busy; nothing was changed. Try again shortly.', 1);
}

/**
 * The REST adapter's way in (CONTRACT 1, 2): takes a database slot (postgres.js slows down when more
 * queries wait than its pool has connections, porsager/postgres#747, so requests queue here instead,
 * for at most a second: a database that cannot keep up answers 503 instead of piling requests up),
 * authenticates the bearer token (a missing or wrong one counts against the client's address), counts
 * the request against its token's rate limit, and runs `fn` in the caller's service context.
 */
export async function withApiContext<T>(
  request: { headers: Headers; url: URL; clientAddress: string; requestId?: string },
  opts: { actorId?: number; projectId?: number },
  fn: (ctx: ServiceContext, principal: Principal) => Promise<T>,
): Promise<T> {
  const handle = await getDbHandle();
  gate ??= new Semaphore(handle.concurrency);
  const waitMs = slotWaitMs(handle.statementTimeoutMs);
  return gate.run(
    async () => {
      let authenticated: Awaited<ReturnType<typeof authenticate>>;
      try {
        authenticated = await authenticate(handle.db, readBearer(request.headers, request.url), opts.actorId);
      } catch (e) {
        if (e instanceof AppError && e.code === 'unauthenticated') throw await failedAuthentication(request.clientAddress, e);
        throw e;
      }
      const { principal, actor } = authenticated;
      await consumeTokenRequest(principal.credential);
      if (opts.projectId !== undefined && opts.projectId !== principal.projectId) {
        throw new AppError('forbidden', 'The token does not belong to this project');
      }
      return fn(createContext(handle.db, principal.projectId, actor, undefined, request.requestId), principal);
    },
    { timeoutMs: waitMs, onTimeout: (state) => refusedForBusyDatabase(state, waitMs) },
  );
}
