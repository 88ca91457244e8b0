import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { VersionView } from './version-view';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string; version: string }> };
const load = cache(async (id: number, version: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.definitions.get({ id, version }));
});

export async function generateMetadata({ params }: Props) {
  const { id, version } = await params;
  const t = await load(idFrom(id), idFrom(version));
  return { title: t ? `${t.title}, version ${t.version}` : 'Template version' };
}

export default async function Page({ params }: Props) {
  const { id, version } = await params;
  const [i, v] = [idFrom(id), idFrom(version)];
  await load(i, v);
  return <VersionView id={i} version={v} />;
}
