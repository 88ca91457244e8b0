import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { ArticleDetail } from './article-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };
const load = cache(async (id: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.articles.get({ id }));
});

export async function generateMetadata({ params }: Props) {
  const a = await load(idFrom((await params).id));
  return { title: a ? a.title : 'Article' };
}

export default async function Page({ params }: Props) {
  const id = idFrom((await params).id);
  await load(id);
  return <ArticleDetail id={id} />;
}
