import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { apiKeys, memberTokens, members } from '@/db/schema';
import type { Actor } from '@/server/context';
import { AppError } from '@/server/errors';
import { hashToken } from './secrets';

export type Principal =
  | { kind: 'integration'; projectId: number; integrationId: number }
  | { kind: 'member'; projectId: number; memberId: number; role: string };

const unauthenticated = (detail: string) => new AppError('unauthenticated', detail);

const QUERY_TOKEN_PARAMS = ['access_token', 'token', 'apiKey'];

/** Reads `Authorization: Bearer`, refusing tokens in the query string (they leak into logs). */
export function readBearer(headers: Headers, url: URL): string {
  if (QUERY_TOKEN_PARAMS.some((p) => url.searchParams.has(p))) {
    throw unauthenticated('Tokens in the query string are refused; send Authorization: Bearer <token>');
  }
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
      .select({ projectId: memberTokens.projectId, memberId: memberTokens.memberId, role: members.role })
      .from(memberTokens)
      .innerJoin(members, eq(members.id, memberTokens.memberId))
      .where(and(eq(memberTokens.tokenHash, sql.placeholder('hash')), isNull(memberTokens.revokedAt)))
      .limit(1)
      .prepare('auth_member_token'),
    apiKey: db
      .select({ projectId: apiKeys.projectId, integrationId: apiKeys.integrationId })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
      .limit(1)
      .prepare('auth_api_key'),
    apiKeyWithActor: db
      .select({
        projectId: apiKeys.projectId,
        integrationId: apiKeys.integrationId,
        actorId: members.id,
        actorRole: members.role,
      })
      .from(apiKeys)
      .leftJoin(members, and(eq(members.projectId, apiKeys.projectId), eq(members.id, sql.placeholder('actorId'))))
      .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
      .limit(1)
      .prepare('auth_api_key_actor'),
  };
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
    return { principal: { kind: 'member', ...row }, actor: { kind: 'member', memberId: row.memberId, role: row.role } };
  }
  if (actorId === undefined) {
    const [row] = await s.apiKey.execute({ hash });
    if (!row) throw unauthenticated('Unknown or revoked token');
    return { principal: { kind: 'integration', ...row }, actor: { kind: 'integration', integrationId: row.integrationId, role: 'admin' } };
  }
  const [row] = await s.apiKeyWithActor.execute({ hash, actorId });
  if (!row) throw unauthenticated('Unknown or revoked token');
  const principal: Principal = { kind: 'integration', projectId: row.projectId, integrationId: row.integrationId };
  if (row.actorId === null || row.actorRole === null) throw unknownActor();
  return { principal, actor: { kind: 'member', memberId: row.actorId, role: row.actorRole } };
}
