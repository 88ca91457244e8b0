import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { DefinitionDetail } from './definition-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };
const load = cache(async (id: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.definitions.get({ id }));
});

export async function generateMetadata({ params }: Props) {
  const a = await load(idFrom((await params).id));
  return { title: a ? a.title : 'Template' };
}

export default async function Page({ params }: Props) {
  const id = idFrom((await params).id);
  await load(id);
  return <DefinitionDetail id={id} />;
}
