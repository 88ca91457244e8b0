import Link from 'next/link';
import { cancelAppointment, markActivityDone, markNotificationRead } from './actions';
import { MemberShell } from './member-shell';
import { ListRow, RowAction } from './row-action';
import { Badge, EmptyState, formatDate } from '@/app/_components/ui';
import { getMemberCaller } from '@/app/_trpc/server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'My care' };

/** A member's own page after signing in through an identity provider: the records they may read. */
const KIND_WORD = { task: 'To do', message: 'To read', questionnaire: 'Questionnaire', appointment: 'Appointment' } as const;

/** What the member does with an activity, by its kind: open a form or a message, mark a task done. */
function ActivityAction({ a }: { a: { id: number; kind: keyof typeof KIND_WORD; display: string } }) {
  const link = 'whitespace-nowrap rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700';
  if (a.kind === 'questionnaire') {
    return (
      <Link href={`/me/activities/${a.id}`} className={link} aria-label={`Fill in “${a.display}”`}>
        Fill in
      </Link>
    );
  }
  if (a.kind === 'message') {
    return (
      <Link href={`/me/activities/${a.id}`} className={link} aria-label={`Read “${a.display}”`}>
        Read
      </Link>
    );
  }
  if (a.kind === 'appointment') {
    return (
      <Link href={`/me/activities/${a.id}`} className={link} aria-label={`Book “${a.display}”`}>
        Book
      </Link>
    );
  }
  return <RowAction action={markActivityDone} id={a.id} label={`Mark “${a.display}” as done`} text="Mark as done" primary />;
}

export default async function MemberHomePage({ searchParams }: { searchParams: Promise<{ records?: string; answered?: string; booked?: string }> }) {
  const query = await searchParams;
  const recordsCursor = Number(query.records) || undefined;
  const caller = await getMemberCaller();
  const [home, appointments] = await Promise.all([caller.me.home({ recordsCursor }), caller.me.appointments()]);
  const scheduleZones = new Map((await caller.me.schedules()).items.map((s) => [s.id, s]));
  const when = (iso: string, scheduleId: number) =>
    new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: scheduleZones.get(scheduleId)?.timeZone ?? 'UTC' }).format(new Date(iso));
  const { member, projectName, records, notifications, activities, upcoming } = home;
  const unread = notifications.filter((n) => !n.readAt).length;
  return (
    <MemberShell projectName={projectName}>
        {query.booked && (
          <p role="status" className="mb-6 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
            Your appointment is booked.
          </p>
        )}
        {query.answered && (
          <p role="status" className="mb-6 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
            Thank you, your answers were sent to your care team.
          </p>
        )}
        <h1 className="text-2xl font-semibold text-slate-900">Welcome, {member.name ?? member.email ?? `member ${member.id}`}</h1>
        <p className="mt-1 text-sm text-slate-600">
          Signed in as {member.email ?? 'a member'} · role <Badge>{member.role}</Badge>
        </p>
        <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">To do</h2>
        {activities.length === 0 ? (
          <EmptyState title="Nothing to do right now">Activities from your care plan appear here when they start.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Your activities">
            {activities.map((a) => (
              <ListRow key={a.id} action={<ActivityAction a={a} />}>
                <p className="text-sm font-semibold text-slate-900">{a.display}</p>
                {a.description && <p className="mt-0.5 text-sm text-slate-600">{a.description}</p>}
                <p className="mt-0.5 text-xs text-slate-500">
                  {KIND_WORD[a.kind]} · since {formatDate(a.activateAt)}
                  {a.endAt && ` · until ${formatDate(a.endAt)}`}
                </p>
              </ListRow>
            ))}
          </ul>
        )}
        <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Upcoming appointments</h2>
        {appointments.items.length === 0 ? (
          <EmptyState title="No appointments booked">When your care plan asks you to book a consultation, it shows under “To do”.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Upcoming appointments">
            {[...appointments.items]
              .sort((a, b) => a.start.localeCompare(b.start))
              .map((a) => (
                <ListRow key={a.id} action={<RowAction action={cancelAppointment} id={a.id} label={`Cancel the appointment of ${when(a.start, a.scheduleId)}`} text="Cancel" />}>
                  <p className="text-sm font-semibold text-slate-900">{when(a.start, a.scheduleId)}</p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    {[a.title, scheduleZones.get(a.scheduleId)?.display].filter(Boolean).join(' · ')} ·{' '}
                    <Link href={`/me/appointments/${a.id}`} className="font-medium text-brand-700 hover:underline">
                      Move
                    </Link>
                  </p>
                </ListRow>
              ))}
          </ul>
        )}
        {upcoming.length > 0 && (
          <>
            <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Coming up</h2>
            <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Coming up">
              {upcoming.map((a) => (
                <li key={a.id} className="px-4 py-3">
                  <p className="text-sm font-medium text-slate-900">{a.display}</p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    {KIND_WORD[a.kind]} · from {formatDate(a.activateAt)}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
        <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">
          Notifications {unread > 0 && <Badge tone="brand">{unread} unread</Badge>}
        </h2>
        {notifications.length === 0 ? (
          <EmptyState title="No notifications">Reminders from your care plan appear here.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Your notifications">
            {notifications.map((n) => (
              <ListRow
                key={n.id}
                action={
                  n.readAt ? <span className="text-xs text-slate-400">Read</span> : <RowAction action={markNotificationRead} id={n.id} label={`Mark “${n.title}” as read`} text="Mark as read" />
                }
              >
                <p className={`text-sm ${n.readAt ? 'text-slate-600' : 'font-semibold text-slate-900'}`}>{n.title}</p>
                {n.body && <p className="mt-0.5 text-sm text-slate-600">{n.body}</p>}
                <p className="mt-0.5 text-xs text-slate-500">{formatDate(n.createdAt)}</p>
              </ListRow>
            ))}
          </ul>
        )}
        <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Your records</h2>
        {records.items.length === 0 ? (
          <EmptyState title="No records to show">Records appear here when your care team shares them with you.</EmptyState>
        ) : (
          <ul className="space-y-3" aria-label="Your records">
            {records.items.map((r) => (
              <li key={r.id} className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
                <div className="flex items-center justify-between">
                  <Badge tone="brand">{r.type}</Badge>
                  <span className="text-xs text-slate-500">updated {formatDate(r.updatedAt)}</span>
                </div>
                <dl className="mt-3 grid grid-cols-[10rem_1fr] gap-x-4 gap-y-1 text-sm">
                  {Object.entries(r.fields).map(([k, v]) => (
                    <div key={k} className="contents">
                      <dt className="text-slate-500">{k}</dt>
                      <dd className="break-all text-slate-900">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
        {(records.next !== null || recordsCursor) && (
          <nav aria-label="More records" className="mt-3 flex justify-end gap-4 text-sm">
            {recordsCursor && (
              <Link href="/me" className="font-medium text-brand-700 hover:underline">
                Back to the first records
              </Link>
            )}
            {records.next !== null && (
              <Link href={`/me?records=${records.next}`} className="font-medium text-brand-700 hover:underline">
                More records
              </Link>
            )}
          </nav>
        )}
    </MemberShell>
  );
}
