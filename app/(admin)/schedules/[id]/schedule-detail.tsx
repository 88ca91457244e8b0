'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { ScheduleEditor } from '../schedule-editor';
import { ScheduleCalendar } from './schedule-calendar';
import { History } from '@/app/_components/history';

export function ScheduleDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [tab, setTab] = useState<'calendar' | 'settings'>('calendar');
  const schedule = useQuery(trpc.schedules.get.queryOptions({ id }));
  const remove = useMutation(saving(trpc.schedules.delete.mutationOptions({ onSuccess: () => router.push('/schedules') }), 'Schedule deleted'));
  if (schedule.isPending) return <Loading label="Loading schedule…" />;
  if (schedule.error) return <ErrorNotice error={schedule.error} onRetry={() => void schedule.refetch()} />;
  const s = schedule.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/schedules" className="text-brand-700">
          ← All schedules
        </Link>
      </p>
      <PageHeader
        title={s.display}
        description={
          <>
            {s.active ? <Badge tone="green">active</Badge> : <Badge>inactive</Badge>} {s.slotMinutes}-minute slots in {s.timeZone}
          </>
        }
        actions={
          isAdmin && (
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete “${s.display}”? Past appointments go with it.`)) remove.mutate({ id });
              }}
            >
              Delete schedule
            </Button>
          )
        }
      />
      <div role="tablist" aria-label="Schedule" className="mb-4 flex gap-1 border-b border-slate-200">
        {(['calendar', 'settings'] as const).map((t) => (
          <button
            key={t}
            role="tab"
            type="button"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${tab === t ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t === 'calendar' ? 'Calendar' : 'Hours and settings'}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'calendar' ? (
          <ScheduleCalendar schedule={s} />
        ) : (
          <div className="space-y-6">
            <ScheduleEditor key={s.id} schedule={s} />
            <History resource="schedule" resourceId={id} />
          </div>
        )}
      </div>
    </>
  );
}
