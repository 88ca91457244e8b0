'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorNotice, Loading } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { History } from '@/app/_components/history';
import { ArticleEditor } from '../article-editor';

export function ArticleDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const article = useQuery(trpc.articles.get.queryOptions({ id }));
  if (article.isPending) return <Loading label="Loading article…" />;
  if (article.error) return <ErrorNotice error={article.error} onRetry={() => void article.refetch()} />;
  return (
    <>
      <ArticleEditor key={article.data.id} article={article.data} />
      <div className="mt-8">
        <History resource="article" resourceId={id} />
      </div>
    </>
  );
}
