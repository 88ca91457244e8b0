import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import { createRecordType, deleteRecordType, getRecordType, listRecordTypes, updateRecordType } from '@/server/services/records/record-types';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '@/server/services/records/records';
import {
  createRecordInput,
  createRecordTypeInput,
  listRecordsQuery,
  recordSchema,
  recordTypeName,
  recordTypeSchema,
  updateRecordInput,
  updateRecordTypeInput,
  type ListRecordsQuery,
} from '@/server/services/records/schemas';

const typeParams = z.object({ type: recordTypeName });
const recordParams = z.object({ type: recordTypeName, id: idParam });
const typedListQuery = listRecordsQuery.omit({ type: true });

export const recordTypeRoutes = [
  defineRoute({
    method: 'POST',
    path: '/record-type',
    tag: 'Record types',
    summary: 'Create a record type with role permissions',
    body: createRecordTypeInput,
    response: recordTypeSchema,
    status: 201,
    location: (t: { type: string }) => `/record-type/${t.type}`,
    handler: (ctx, { body }) => createRecordType(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/record-type',
    tag: 'Record types',
    summary: 'List record types',
    paginated: true,
    response: recordTypeSchema,
    handler: (ctx, { page }) => listRecordTypes(ctx, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/record-type/{type}',
    tag: 'Record types',
    summary: 'Get a record type',
    params: typeParams,
    response: recordTypeSchema,
    handler: (ctx, { params }) => getRecordType(ctx, params.type),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/record-type/{type}',
    tag: 'Record types',
    summary: "Replace a record type's permissions",
    params: typeParams,
    body: updateRecordTypeInput,
    response: recordTypeSchema,
    handler: (ctx, { params, body }) => updateRecordType(ctx, params.type, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/record-type/{type}',
    tag: 'Record types',
    summary: 'Delete a record type',
    description: '409 while records of the type exist.',
    params: typeParams,
    status: 204,
    handler: (ctx, { params }) => deleteRecordType(ctx, params.type),
  }),
];

export const recordRoutes = [
  defineRoute({
    method: 'GET',
    path: '/record',
    tag: 'Records',
    summary: 'List records the actor may read',
    description: 'Admins see all records; other roles only their own, of types granting them `read`.',
    query: listRecordsQuery,
    paginated: true,
    response: recordSchema,
    handler: (ctx, { query, page }) => listRecords(ctx, query as ListRecordsQuery, page),
  }),
  defineRoute({
    method: 'POST',
    path: '/record/{type}',
    tag: 'Records',
    summary: 'Create a record',
    description: 'Admins, or a role with `write` on the type for its own member.',
    params: typeParams,
    body: createRecordInput,
    response: recordSchema,
    status: 201,
    location: (r: { type: string; id: number }) => `/record/${r.type}/${r.id}`,
    handler: (ctx, { params, body }) => createRecord(ctx, params.type, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/record/{type}',
    tag: 'Records',
    summary: 'List records of a type',
    params: typeParams,
    query: typedListQuery,
    paginated: true,
    response: recordSchema,
    handler: (ctx, { params, query, page }) =>
      listRecords(ctx, { ...(query as ListRecordsQuery), type: params.type }, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/record/{type}/{id}',
    tag: 'Records',
    summary: 'Get a record',
    params: recordParams,
    response: recordSchema,
    handler: (ctx, { params }) => getRecord(ctx, params.type, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/record/{type}/{id}',
    tag: 'Records',
    summary: 'Update a record (JSON Merge Patch of fields)',
    params: recordParams,
    body: updateRecordInput,
    response: recordSchema,
    handler: (ctx, { params, body }) => updateRecord(ctx, params.type, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/record/{type}/{id}',
    tag: 'Records',
    summary: 'Delete a record',
    params: recordParams,
    status: 204,
    handler: (ctx, { params }) => deleteRecord(ctx, params.type, params.id),
  }),
];
