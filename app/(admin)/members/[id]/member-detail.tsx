'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { SecretOnce } from '@/app/_components/secret-once';
import { CAREPLAN_TONE } from '@/app/_components/activity-status';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { MemberForm } from '../member-form';
import { MemberNotifications } from './member-notifications';
import { MemberResponses } from './member-responses';
import { MemberAppointments } from './member-appointments';
import { When } from '@/app/_components/when';
import { History } from '@/app/_components/history';
import { useSaving } from '@/app/_components/saving';

export function MemberDetail({ id, bookActivity, bookSchedule }: { id: number; bookActivity?: number; bookSchedule?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const member = useQuery(trpc.members.get.queryOptions({ id }));
  const recordPager = usePager();
  const planPager = usePager();
  const records = useQuery({ ...trpc.members.records.queryOptions({ id, cursor: recordPager.cursor, limit: 25 }), placeholderData: keepPreviousData });
  const plans = useQuery({ ...trpc.careplans.list.queryOptions({ subjectId: id, limit: 25, cursor: planPager.cursor }), placeholderData: keepPreviousData });
  const saving = useSaving();
  const [token, setToken] = useState<string | null>(null);
  const update = useMutation(
    saving(
      trpc.members.update.mutationOptions({
        onSuccess: async (m) => {
          queryClient.setQueryData(trpc.members.get.queryKey({ id }), m);
          await queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
          await queryClient.invalidateQueries({ queryKey: trpc.audit.list.queryKey() });
        },
      }),
      'Member saved',
      { quietErrors: true },
    ),
  );
  const issue = useMutation(saving(trpc.members.issueToken.mutationOptions({ onSuccess: (r) => setToken(r.token) }), 'Member token issued'));
  const remove = useMutation(
    saving(
      trpc.members.delete.mutationOptions({
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
          router.push('/members');
        },
      }),
      (m) => `${m.name ?? `Member ${m.id}`} deleted`,
    ),
  );

  if (member.isPending) return <Loading label="Loading member…" />;
  if (member.error) {
    return (
      <>
        <PageHeader title="Member" />
        <ErrorNotice error={member.error} onRetry={() => void member.refetch()} />
        <p className="mt-4 text-sm">
          <Link href="/members" className="text-brand-700">
            ← All members
          </Link>
        </p>
      </>
    );
  }
  const m = member.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/members" className="text-brand-700">
          ← All members
        </Link>
      </p>
      <PageHeader
        title={m.name ?? m.email ?? `Member ${m.id}`}
        description={
          <>
            Member {m.id} · role <Badge tone={m.role === 'admin' ? 'amber' : 'slate'}>{m.role}</Badge> · added <When at={m.createdAt} style="day" />
            {m.timeZone && <> · reads times in {m.timeZone}</>}
          </>
        }
        actions={
          isAdmin && (
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete ${m.name ?? `member #${m.id}`} with all their records? This cannot be undone.`)) remove.mutate({ id });
              }}
            >
              Delete member
            </Button>
          )
        }
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card title="Details">
          {isAdmin ? (
            <MemberForm key={m.updatedAt} initial={m} submitLabel="Save changes" busy={update.isPending} error={update.error} onSubmit={(changes) => update.mutate({ id, changes })} />
          ) : (
            <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
              <dt className="text-slate-600">Email</dt>
              <dd>{m.email ?? '—'}</dd>
              <dt className="text-slate-600">External ID</dt>
              <dd>{m.externalId ?? '—'}</dd>
              <dt className="text-slate-600">Time zone</dt>
              <dd>{m.timeZone ?? "The project's"}</dd>
              <dt className="text-slate-600">Meta</dt>
              <dd>
                <pre className="text-xs">{JSON.stringify(m.meta, null, 2)}</pre>
              </dd>
            </dl>
          )}
        </Card>
        {isAdmin && (
          <Card title="Access token" className="self-start">
            <p className="mb-3 text-sm text-slate-600">
              A member token lets an app act as this member through the API, with the member&apos;s role.
            </p>
            {token ? (
              <SecretOnce label="Member access token" secret={token} onDone={() => setToken(null)} />
            ) : (
              <Button variant="secondary" busy={issue.isPending} onClick={() => issue.mutate({ id })}>
                Issue a member token
              </Button>
            )}
            <ErrorNotice error={issue.error} />
          </Card>
        )}
      </div>
      <div className="mb-3 mt-8 flex items-center justify-between">
        <h2 className="text-lg font-semibold text-slate-900">Care plans</h2>
        <Link href={`/careplans?member=${id}`} className="text-sm text-brand-700">
          Enrol in a care plan
        </Link>
      </div>
      {plans.isPending ? (
        <Loading label="Loading care plans…" />
      ) : plans.error ? (
        <ErrorNotice error={plans.error} onRetry={() => void plans.refetch()} />
      ) : plans.data.items.length === 0 ? (
        <EmptyState title="Not enrolled in any care plan" />
      ) : (
        <Table caption="Care plans of this member" head={['Care plan', 'Template', 'Status', 'Started']}>
          {plans.data.items.map((c) => (
            <tr key={c.id}>
              <Td>
                <Link href={`/careplans/${c.id}`} className="font-medium text-brand-700">
                  {c.title}
                </Link>
              </Td>
              <Td className="font-mono text-xs">
                {c.slug} v{c.version}
              </Td>
              <Td>
                <Badge tone={CAREPLAN_TONE[c.status]}>{c.status}</Badge>
              </Td>
              <Td className="whitespace-nowrap text-slate-600"><When at={c.createdAt} /></Td>
            </tr>
          ))}
        </Table>
      )}
      <PagerControls pager={planPager} query={plans} />
      <MemberAppointments memberId={id} activityId={bookActivity} scheduleId={bookSchedule} />
      <MemberResponses memberId={id} />
      <MemberNotifications memberId={id} />
      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Records</h2>
      {records.isPending ? (
        <Loading label="Loading records…" />
      ) : records.error ? (
        <ErrorNotice error={records.error} onRetry={() => void records.refetch()} />
      ) : records.data.items.length === 0 ? (
        <EmptyState title="No records for this member" />
      ) : (
        <Table caption="Records of this member" head={['Type', 'Fields', 'Updated']}>
          {records.data.items.map((r) => (
            <tr key={r.id}>
              <Td>
                <Badge tone="brand">{r.type}</Badge>
              </Td>
              <Td className="font-mono text-xs">{JSON.stringify(r.fields)}</Td>
              <Td className="whitespace-nowrap text-slate-600"><When at={r.updatedAt} /></Td>
            </tr>
          ))}
        </Table>
      )}
      <PagerControls pager={recordPager} query={records} />
      <div className="mt-8">
        <History resource="member" resourceId={id} />
      </div>
    </>
  );
}
