'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { ARTICLE_STATUSES, type ArticleStatus } from '@/server/services/articles/schemas';
import { When } from '@/app/_components/when';

const PAGE_SIZE = 25;

export function ArticlesPage() {
  const trpc = useTRPC();
  const isAdmin = useIsAdmin();
  const pager = usePager();
  const [status, setStatus] = useState<ArticleStatus | ''>('');
  const [search, setSearch] = useState('');
  const list = useQuery({
    ...trpc.articles.list.queryOptions({ status: status || undefined, search: search.trim() || undefined, cursor: pager.cursor, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const newLink = isAdmin && (
    <Link href="/articles/new" className="inline-flex items-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
      New article
    </Link>
  );
  const filtered = status !== '' || search.trim() !== '';
  return (
    <>
      <PageHeader title="Articles" description="What members read: message activities can point at a published article. Written in Markdown." actions={newLink} />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <TextField label="Search" value={search} onChange={(e) => (setSearch(e.target.value), pager.reset())} placeholder="Title or slug" className="w-64" />
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as ArticleStatus | ''), pager.reset())} className="w-40">
          <option value="">All</option>
          {ARTICLE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === 'draft' ? 'Draft' : 'Published'}
            </option>
          ))}
        </SelectField>
      </div>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading articles…" />
      ) : list.data?.items.length === 0 ? (
        filtered ? (
          <EmptyState title="No articles match">Try another search or status.</EmptyState>
        ) : (
          <EmptyState title="No articles yet" action={newLink}>
            Write what members should read before or after a step of their care, and link it from a template&apos;s message action.
          </EmptyState>
        )
      ) : (
        list.data && (
          <Table caption="Articles" head={['Title', 'Slug', 'Status', 'Updated']}>
            {list.data.items.map((a) => (
              <tr key={a.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/articles/${a.id}`} className="font-medium text-brand-700 hover:underline">
                    {a.title}
                  </Link>
                  {a.summary && <p className="mt-0.5 text-xs text-slate-500">{a.summary}</p>}
                </Td>
                <Td className="font-mono text-xs">{a.slug}</Td>
                <Td>{a.status === 'published' ? <Badge tone="green">Published</Badge> : <Badge>Draft</Badge>}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={a.updatedAt} /></Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
