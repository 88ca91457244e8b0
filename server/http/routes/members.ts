import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import {
  createMember,
  deleteMember,
  getMember,
  issueMemberToken,
  listMembers,
  updateMember,
} from '@/server/services/members/members';
import {
  createMemberInput,
  listMembersQuery,
  memberSchema,
  memberTokenSchema,
  updateMemberInput,
} from '@/server/services/members/schemas';

const idParams = z.object({ id: idParam });
const tag = 'Members';

export const memberRoutes = [
  defineRoute({
    method: 'POST',
    path: '/member',
    tag,
    summary: 'Create a member',
    description: 'Emits `member_create`.',
    body: createMemberInput,
    response: memberSchema,
    status: 201,
    location: (m: { id: number }) => `/member/${m.id}`,
    handler: (ctx, { body }) => createMember(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/member',
    tag,
    summary: 'List members',
    query: listMembersQuery,
    paginated: true,
    response: memberSchema,
    handler: (ctx, { query, page }) => listMembers(ctx, query, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/member/{id}',
    tag,
    summary: 'Get a member',
    params: idParams,
    response: memberSchema,
    handler: (ctx, { params }) => getMember(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/member/{id}',
    tag,
    summary: 'Update a member',
    description: 'Emits `member_update` with params `{id, ...changes}`.',
    params: idParams,
    body: updateMemberInput,
    response: memberSchema,
    handler: (ctx, { params, body }) => updateMember(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/member/{id}',
    tag,
    summary: 'Delete a member',
    description: 'Deletes the member with its records and tokens. Emits `member_delete`.',
    params: idParams,
    status: 204,
    handler: (ctx, { params }) => deleteMember(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/member/{id}/token',
    tag,
    summary: 'Issue a member access token',
    description: 'Admin only. The token acts as the member, with its role; it is shown once.',
    params: idParams,
    response: memberTokenSchema,
    status: 201,
    location: (_t: unknown, p) => `/member/${p.id}`,
    handler: (ctx, { params }) => issueMemberToken(ctx, params.id),
  }),
];
