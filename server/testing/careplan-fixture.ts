import type { ServiceContext } from '@/server/context';
import { createCareplan } from '@/server/services/careplans/careplans';
import { createDefinition } from '@/server/services/careplans/definitions';
import { createMember } from '@/server/services/members/members';

/**
 * A member enrolled in a care plan whose own activity is years away: a home for activities that a test
 * or benchmark inserts in bulk with the due times it needs.
 */
export async function careplanForBulkActivities(ctx: ServiceContext, slug: string) {
  const member = await createMember(ctx, { name: 'Pat' });
  const definition = await createDefinition(ctx, {
    slug,
    title: slug,
    inputs: [],
    actions: [{ key: 'later', kind: 'task', type: 'task', display: 'Later', actorType: 'subject', start: { offset: 10, offsetUnit: 'a' }, reminders: [] }],
  });
  const careplan = await createCareplan(ctx, { definitionId: definition.id, subjectId: member.id });
  return { member, careplan };
}
