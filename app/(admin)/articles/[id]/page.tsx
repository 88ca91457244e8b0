import { notFound } from 'next/navigation';
import { ArticleDetail } from './article-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Article' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <ArticleDetail id={id} />;
}
