import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
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

export async function resolvePrincipal(db: Queryable, token: string): Promise<Principal> {
  const hash = hashToken(token);
  if (token.startsWith('cb_mem_')) {
    const [row] = await db
      .select({ projectId: memberTokens.projectId, memberId: memberTokens.memberId, role: members.role })
      .from(memberTokens)
      .innerJoin(members, eq(members.id, memberTokens.memberId))
      .where(and(eq(memberTokens.tokenHash, hash), isNull(memberTokens.revokedAt)))
      .limit(1);
    if (row) return { kind: 'member', ...row };
  } else {
    const [row] = await db
      .select({ projectId: apiKeys.projectId, integrationId: apiKeys.integrationId })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    if (row) return { kind: 'integration', ...row };
  }
  throw unauthenticated('Unknown or revoked token');
}

/**
 * The actor a request is evaluated as. An integration key acts as admin, or as the member named by
 * `actorId`; a member token acts as its member and may only name itself.
 */
export async function resolveActor(db: Queryable, principal: Principal, actorId: number | undefined): Promise<Actor> {
  if (principal.kind === 'member') {
    if (actorId !== undefined && actorId !== principal.memberId) {
      throw new AppError('forbidden', 'A member token may only act as its own member');
    }
    return { kind: 'member', memberId: principal.memberId, role: principal.role };
  }
  if (actorId === undefined) return { kind: 'integration', integrationId: principal.integrationId, role: 'admin' };
  const [member] = await db
    .select({ id: members.id, role: members.role })
    .from(members)
    .where(and(eq(members.id, actorId), eq(members.projectId, principal.projectId)))
    .limit(1);
  if (!member) {
    throw new AppError('invalid_request', 'The request is invalid', [
      { path: 'actorId', message: 'No member with this id in the project' },
    ]);
  }
  return { kind: 'member', memberId: member.id, role: member.role };
}
