import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { MemberDetail } from './member-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ bookActivity?: string; schedule?: string }> };
const load = cache(async (id: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.members.get({ id }));
});

export async function generateMetadata({ params }: Props) {
  const m = await load(idFrom((await params).id));
  return { title: m?.name ?? m?.email ?? 'Member' };
}

export default async function Page({ params, searchParams }: Props) {
  const id = idFrom((await params).id);
  await load(id);
  const query = await searchParams;
  const positive = (v?: string) => (Number.isSafeInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
  return <MemberDetail id={id} bookActivity={positive(query.bookActivity)} bookSchedule={positive(query.schedule)} />;
}
