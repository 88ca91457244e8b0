'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { ActivityStatus, relativeTime } from '@/app/_components/activity-status';
import { Badge, Button, ErrorNotice, Table, Td } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/root';
import { When } from '@/app/_components/when';

type TimelineActivity = inferRouterOutputs<AppRouter>['activities']['timeline'][number];

export const KIND_NAME = { task: 'Task', message: 'Message', questionnaire: 'Questionnaire', appointment: 'Appointment' } as const;

/** What completes an activity of this kind from this table: a task or message by a click; a questionnaire by its response. */
function KindAction({ a, editable }: { a: TimelineActivity; editable: boolean }) {
  if (a.kind === 'questionnaire' && a.questionnaireResponseId) {
    return (
      <Link href={`/responses/${a.questionnaireResponseId}`} className="text-sm font-medium text-brand-700 hover:underline" aria-label={`Open the response to ${a.display}`}>
        Response
      </Link>
    );
  }
  if (a.kind === 'appointment' && a.appointmentId) return <BookedAppointment id={a.appointmentId} />;
  if (a.kind === 'appointment' && a.status === 'scheduled' && editable) {
    return (
      <Link href={`/members/${a.subjectId}?bookActivity=${a.id}${a.scheduleId ? `&schedule=${a.scheduleId}` : ''}`} className="text-sm font-medium text-brand-700 hover:underline" aria-label={`Book ${a.display}`}>
        Book
      </Link>
    );
  }
  if (a.kind === 'questionnaire' && a.status === 'scheduled' && editable) {
    return (
      <Link
        href={`/members/${a.subjectId}/respond?questionnaireId=${a.questionnaireId}&activityId=${a.id}`}
        className="text-sm font-medium text-brand-700 hover:underline"
        aria-label={`Enter the response to ${a.display} on the member's behalf`}
      >
        Enter response
      </Link>
    );
  }
  return null;
}

/** The appointment that completed an appointment activity: when, linking to its schedule's calendar. */
function BookedAppointment({ id }: { id: number }) {
  const trpc = useTRPC();
  const appointment = useQuery(trpc.appointments.get.queryOptions({ id }));
  if (!appointment.data) return null;
  return (
    <Link href={`/schedules/${appointment.data.scheduleId}`} className="text-sm font-medium text-brand-700 hover:underline">
      Booked <When at={appointment.data.start} /> ({appointment.data.status})
    </Link>
  );
}

function nextStep(a: TimelineActivity): string {
  if (a.status === 'proposed') return `starts ${relativeTime(a.activateAt)}`;
  if (a.status === 'scheduled') {
    const parts = [a.pendingReminders[0] && `reminder ${relativeTime(a.pendingReminders[0])}`, a.endAt && `expires ${relativeTime(a.endAt)}`].filter(Boolean);
    return parts.length > 0 ? parts.join(' · ') : 'open until completed';
  }
  if (a.status === 'completed' && a.completedAt) return `completed ${relativeTime(a.completedAt)}`;
  if (a.status === 'expired') return a.endAt ? `expired ${relativeTime(a.endAt)}, not completed` : 'expired, not completed';
  return `cancelled ${relativeTime(a.updatedAt)}`;
}

/** The care plan's activities as a table: live status, what happens next, and complete/cancel for open ones. */
export function ActivityList({ careplanId, activities, editable }: { careplanId: number; activities: TimelineActivity[]; editable: boolean }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const update = useMutation(
    saving(trpc.activities.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.activities.timeline.queryKey({ careplanId }) }),
    }), (a) => `${a.display} ${a.status}`),
  );
  return (
    <>
      <ErrorNotice error={update.error} />
      <Table caption="Activities" head={['Activity', 'Status', 'Starts', 'Next', 'Reminders left', '']}>
        {activities.map((a) => {
          const open = a.status === 'proposed' || a.status === 'scheduled';
          return (
            <tr key={a.id}>
              <Td>
                <span className="font-medium text-slate-900">{a.display}</span> <span className="text-xs text-slate-500">{a.type}</span>{' '}
                {a.kind !== 'task' && <Badge tone="brand">{KIND_NAME[a.kind]}</Badge>}
                {a.actorType !== 'subject' && <span className="block text-xs text-slate-500">for the {a.actorType}</span>}
              </Td>
              <Td>
                <ActivityStatus status={a.status} />
              </Td>
              <Td className="whitespace-nowrap"><When at={a.activateAt} /></Td>
              <Td className="text-slate-600">{nextStep(a)}</Td>
              <Td className="tabular-nums">{a.pendingReminders.length}</Td>
              <Td className="whitespace-nowrap text-right">
                {open && editable && (
                  <span className="flex items-center justify-end gap-2">
                    <KindAction a={a} editable={editable} />
                    {(a.kind === 'task' || a.kind === 'message') && (
                    <Button
                      variant="secondary"
                      aria-label={`Complete ${a.display}`}
                      busy={update.isPending && update.variables?.id === a.id && update.variables.changes.status === 'completed'}
                      onClick={() => update.mutate({ id: a.id, changes: { status: 'completed' } })}
                    >
                      Complete
                    </Button>
                    )}
                    <Button
                      variant="ghost"
                      aria-label={`Cancel ${a.display}`}
                      busy={update.isPending && update.variables?.id === a.id && update.variables.changes.status === 'cancelled'}
                      onClick={() => {
                        if (window.confirm(`Cancel “${a.display}”? It will not be scheduled or remind anyone.`)) update.mutate({ id: a.id, changes: { status: 'cancelled' } });
                      }}
                    >
                      Cancel
                    </Button>
                  </span>
                )}
                {!open && <KindAction a={a} editable={editable} />}
              </Td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}
