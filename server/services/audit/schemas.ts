import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from '@/db/schema/enums';
import { idFilter, idSchema } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';

export { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES };

export const auditEventSchema = z
  .object({
    id: idSchema,
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES),
        id: z.number().int().nullable().meta({ description: 'The user, integration or member id; null for the system' }),
        keyId: z.number().int().nullable().meta({ description: 'The API key the request came with, when one did' }),
        name: z.string().nullable().meta({ description: "The actor's name or email, when known" }),
      })
      .meta({ id: 'AuditActor' }),
    action: z.enum(AUDIT_ACTIONS),
    resource: z.string().meta({ description: 'What changed, by its REST name: member, careplan, webhook, user, ...' }),
    resourceId: z.number().int(),
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .meta({ description: 'Each changed field with its value before and after; secrets and tokens show as [redacted]' }),
    requestId: z.string().nullable().meta({ description: 'The X-Request-Id of the request that made the change; null for background work' }),
    createdAt: timestampSchema,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEventDto = z.infer<typeof auditEventSchema>;

const instant = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });

export const listAuditEventsQuery = z.object({
  resource: z.string().max(64).optional().meta({ description: 'e.g. member, careplan-parameter, webhook' }),
  resourceId: idFilter,
  actorType: z.enum(AUDIT_ACTOR_TYPES).optional(),
  actorId: idFilter.meta({ description: 'With actorType: the user, integration or member' }),
  from: instant.optional().meta({ description: 'Changes at or after this time' }),
  to: instant.optional().meta({ description: 'Changes before this time' }),
});
export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuery>;
