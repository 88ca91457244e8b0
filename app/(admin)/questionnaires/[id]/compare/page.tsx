import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { CompareQuestionnaires } from './compare-questionnaires';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ from?: string; to?: string }> };
const load = cache(async (id: number, version: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.questionnaires.get({ id, version }));
});

async function versions({ params, searchParams }: Props) {
  const id = idFrom((await params).id);
  const { from, to } = await searchParams;
  if (!from || !to) notFound();
  const [a, b] = [idFrom(from), idFrom(to)];
  await Promise.all([load(id, a), load(id, b)]);
  return { id, a, b };
}

export async function generateMetadata(props: Props) {
  const { id, a, b } = await versions(props);
  const q = await load(id, b);
  return { title: `${q?.title ?? 'Questionnaire'}: version ${a} and ${b}` };
}

export default async function Page(props: Props) {
  const { id, a, b } = await versions(props);
  return <CompareQuestionnaires id={id} from={a} to={b} />;
}
