'use client';

import { useQuery } from '@tanstack/react-query';

import { Badge, EmptyState, ErrorNotice, Loading, Table, Td } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { When } from '@/app/_components/when';

const STATUS_TONE = { pending: 'amber', sent: 'green', suppressed: 'slate' } as const;
const STATUS_HINT = {
  pending: 'waiting for an integration to send it',
  sent: 'in the member’s inbox',
  suppressed: 'for the care team, not sent to the member',
} as const;

/** The notifications reminders wrote for a member, newest first, refreshed as reminders fire. */
export function MemberNotifications({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.activities.notifications.queryOptions({ memberId }), refetchInterval: 10_000 });
  return (
    <>
      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Notifications</h2>
      {list.isPending ? (
        <Loading label="Loading notifications…" />
      ) : list.error ? (
        <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No notifications yet">Reminders of this member&apos;s care plan activities appear here when they fire.</EmptyState>
      ) : (
        <Table caption="Notifications of this member" head={['Title', 'Status', 'Medium', 'Created', 'Read']}>
          {list.data.map((n) => (
            <tr key={n.id}>
              <Td>
                <span className="font-medium text-slate-900">{n.title}</span>
                {n.body && <span className="block text-xs text-slate-500">{n.body}</span>}
              </Td>
              <Td>
                <span title={STATUS_HINT[n.status]}>
                  <Badge tone={STATUS_TONE[n.status]}>{n.status}</Badge>
                </span>
              </Td>
              <Td className="text-slate-600">{n.medium ? [n.medium].flat().join(', ') : 'in app'}</Td>
              <Td className="whitespace-nowrap text-slate-500" >
                <When at={n.createdAt} />
              </Td>
              <Td className="whitespace-nowrap text-slate-500">{n.readAt ? <When at={n.readAt} /> : 'unread'}</Td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
