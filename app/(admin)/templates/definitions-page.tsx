'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useIsAdmin } from '@/app/_components/staff-context';
import { EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useTRPC } from '@/app/_trpc/client';
import { When } from '@/app/_components/when';

const PAGE_SIZE = 25;

export function DefinitionsPage() {
  const trpc = useTRPC();
  const isAdmin = useIsAdmin();
  const pager = usePager();
  const list = useQuery({ ...trpc.definitions.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const newLink = isAdmin && (
    <Link href="/templates/new" className="inline-flex items-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
      New template
    </Link>
  );
  return (
    <>
      <PageHeader title="Templates" description="Care plan definitions: reference dates and the actions scheduled from them. Versions that care plans use never change." actions={newLink} />
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading templates…" />
      ) : list.data?.items.length === 0 ? (
        <EmptyState title="No templates yet" action={newLink}>
          A template describes the activities of a care plan and when they happen.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Templates" head={['Title', 'Slug', 'Version', 'Inputs', 'Actions', 'Updated']}>
            {list.data.items.map((t) => (
              <tr key={t.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/templates/${t.id}`} className="font-medium text-brand-700 hover:underline">
                    {t.title}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{t.slug}</Td>
                <Td>v{t.version}</Td>
                <Td>{t.inputs?.map((i) => i.key).join(', ') || '—'}</Td>
                <Td className="tabular-nums">{t.actions.length}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={t.updatedAt} /></Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
