import { cache } from 'react';
import { AdminOnly } from '@/app/_components/admin-only';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { EventDetail } from './event-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };
const load = cache(async (id: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.events.get({ id }));
});

export async function generateMetadata({ params }: Props) {
  const e = await load(idFrom((await params).id));
  return { title: e ? `Event ${e.id} · ${e.name}` : 'Event' };
}

export default async function Page({ params }: Props) {
  const id = idFrom((await params).id);
  await load(id);
  return (
    <AdminOnly title="Event">
      <EventDetail id={id} />
    </AdminOnly>
  );
}
