import Link from 'next/link';
import { cancelAppointment, markActivityDone, markNotificationRead } from './actions';
import { MemberShell } from './member-shell';
import { ListRow, RowAction } from './row-action';
import { longDateTime, longDay, relative } from '@/app/_components/dates';
import { EmptyState } from '@/app/_components/ui';
import { getMemberCaller } from '@/app/_trpc/server';
import { humanise, showValue } from './words';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'My care' };

type Kind = 'task' | 'message' | 'questionnaire' | 'appointment';
const ACTION: Record<Exclude<Kind, 'task'>, { text: string; verb: string }> = {
  questionnaire: { text: 'Fill in', verb: 'Fill in' },
  message: { text: 'Read', verb: 'Read' },
  appointment: { text: 'Choose a time', verb: 'Book' },
};

/** What the member does with an activity: open a form, a message or a booking, or say a task is done. */
function ActivityAction({ a }: { a: { id: number; kind: Kind; display: string } }) {
  if (a.kind === 'task') return <RowAction action={markActivityDone} id={a.id} label={`Mark “${a.display}” as done`} text="Done" primary />;
  const { text, verb } = ACTION[a.kind];
  return (
    <Link href={`/me/activities/${a.id}`} className="whitespace-nowrap rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700" aria-label={`${verb} “${a.display}”`}>
      {text}
    </Link>
  );
}

/** A member's own page: what to do now, their appointments, what comes next, messages, and what we know of them. */
export default async function MemberHomePage({ searchParams }: { searchParams: Promise<{ records?: string; answered?: string; booked?: string }> }) {
  const query = await searchParams;
  const recordsCursor = Number(query.records) || undefined;
  const caller = await getMemberCaller();
  const [home, appointments, schedules] = await Promise.all([caller.me.home({ recordsCursor }), caller.me.appointments(), caller.me.schedules()]);
  const { member, projectName, records, notifications, activities, upcoming, timeZone } = home;
  const scheduleName = new Map(schedules.items.map((s) => [s.id, s.display]));
  const firstName = member.name?.split(' ')[0];
  const unread = notifications.filter((n) => !n.readAt).length;
  const dueBy = (endAt: string | null) => (endAt ? `Please do this by ${longDay(endAt, timeZone)}.` : null);
  return (
    <MemberShell projectName={projectName}>
      {query.booked && (
        <p role="status" className="mb-6 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
          Your appointment is booked. You find it below.
        </p>
      )}
      {query.answered && (
        <p role="status" className="mb-6 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
          Thank you, your answers were sent to your care team.
        </p>
      )}
      <h1 className="text-2xl font-semibold text-slate-900">{firstName ? `Hello, ${firstName}` : 'Hello'}</h1>
      <p className="mt-1 text-base text-slate-700">Here is what your care team at {projectName} has planned for you.</p>

      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Things to do now</h2>
      {activities.length === 0 ? (
        <EmptyState title="Nothing to do right now">When there is something for you to do, it appears here.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Things to do now">
          {activities.map((a) => (
            <ListRow key={a.id} action={<ActivityAction a={a} />}>
              <p className="text-base font-medium text-slate-900">{a.display}</p>
              {a.description && <p className="mt-0.5 text-sm text-slate-700">{a.description}</p>}
              {dueBy(a.endAt) && <p className="mt-0.5 text-sm text-slate-600">{dueBy(a.endAt)}</p>}
            </ListRow>
          ))}
        </ul>
      )}

      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Your appointments</h2>
      {appointments.items.length === 0 ? (
        <EmptyState title="No appointments booked">When your care plan asks you to book one, it appears under “Things to do now”.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Your appointments">
          {[...appointments.items]
            .sort((a, b) => a.start.localeCompare(b.start))
            .map((a) => (
              <ListRow key={a.id} action={<RowAction action={cancelAppointment} id={a.id} label={`Cancel the appointment of ${longDateTime(a.start, timeZone)}`} text="Cancel" />}>
                <p className="text-base font-medium text-slate-900">{longDateTime(a.start, timeZone)}</p>
                <p className="mt-0.5 text-sm text-slate-700">{[a.title, scheduleName.get(a.scheduleId)].filter(Boolean).join(', ')}</p>
                <p className="mt-1 text-sm">
                  <Link href={`/me/appointments/${a.id}`} className="font-medium text-brand-700">
                    Choose another time
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
                <p className="text-base text-slate-900">{a.display}</p>
                <p className="mt-0.5 text-sm text-slate-600">From {longDay(a.activateAt, timeZone)}</p>
              </li>
            ))}
          </ul>
        </>
      )}

      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">
        Messages
        {unread > 0 && <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 align-middle text-xs font-medium text-white">{unread} new</span>}
      </h2>
      {notifications.length === 0 ? (
        <EmptyState title="No messages">Reminders from your care team appear here.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200" aria-label="Your messages">
          {notifications.map((n) => (
            <ListRow key={n.id} action={n.readAt ? undefined : <RowAction action={markNotificationRead} id={n.id} label={`Mark “${n.title}” as read`} text="Mark as read" />}>
              <p className={`text-base ${n.readAt ? 'text-slate-700' : 'font-medium text-slate-900'}`}>{n.title}</p>
              {n.body && <p className="mt-0.5 text-sm text-slate-700">{n.body}</p>}
              <p className="mt-0.5 text-sm text-slate-600">
                <time dateTime={n.createdAt} title={longDateTime(n.createdAt, timeZone)}>
                  {relative(n.createdAt)}
                </time>
              </p>
            </ListRow>
          ))}
        </ul>
      )}

      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">What we have on file</h2>
      {records.items.length === 0 ? (
        <EmptyState title="Nothing to show yet">Information your care team shares with you appears here.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="What we have on file">
          {records.items.map((r) => (
            <li key={r.id} className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
              <h3 className="text-base font-medium text-slate-900">{humanise(r.type)}</h3>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
                {Object.entries(r.fields).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-slate-600">{humanise(k)}</dt>
                    <dd className="mb-1 break-words text-slate-900 sm:mb-0">{showValue(v)}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-2 text-xs text-slate-600">Last updated {longDay(r.updatedAt, timeZone)}</p>
            </li>
          ))}
        </ul>
      )}
      {(records.next !== null || recordsCursor) && (
        <nav aria-label="More information" className="mt-3 flex justify-end gap-4 text-sm">
          {recordsCursor && (
            <Link href="/me" className="font-medium text-brand-700">
              Back to the start
            </Link>
          )}
          {records.next !== null && (
            <Link href={`/me?records=${records.next}`} className="font-medium text-brand-700">
              Show more
            </Link>
          )}
        </nav>
      )}
      <p className="mt-10 text-center text-xs text-slate-600">Times are shown in {timeZone.replace(/_/g, ' ')} time.</p>
    </MemberShell>
  );
}
