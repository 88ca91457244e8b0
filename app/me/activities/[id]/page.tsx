import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Markdown } from '@/app/_components/markdown';
import { longDay } from '@/app/_components/dates';
import { getMemberCaller } from '@/app/_trpc/server';
import { markActivityDone } from '../../actions';
import { MemberShell } from '../../member-shell';
import { RowAction } from '../../row-action';
import { MemberQuestionnaire } from './member-questionnaire';
import { MemberBooking } from '../../member-booking';
import { freeTimes } from '../../slots';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'My care' };

/** One of the member's activities by its kind: a questionnaire to fill in, or a message (with its article) to read. */
export default async function MemberActivityPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const caller = await getMemberCaller();
  const home = await caller.me.home({});
  const activity = await caller.me.activity({ id }).catch(() => null);
  if (!activity || activity.subjectId !== home.member.id) notFound();
  const back = (
    <p className="mb-4 text-sm">
      <Link href="/me" className="font-medium text-brand-700">
        ← Back to my care
      </Link>
    </p>
  );
  const open = activity.status === 'scheduled';

  if (activity.kind === 'questionnaire' && activity.questionnaireId) {
    const [questionnaire, draft] = await Promise.all([caller.me.questionnaire({ id: activity.questionnaireId }).catch(() => null), caller.me.draft({ activityId: id })]);
    return (
      <MemberShell projectName={home.projectName}>
        {back}
        {!questionnaire ? (
          <p className="text-sm text-slate-600">This questionnaire is no longer available. Your care team has been told about changes like this; nothing is needed from you.</p>
        ) : !open ? (
          <p role="status" className="rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
            {activity.status === 'completed' ? 'You have already sent this questionnaire. Thank you.' : 'This questionnaire can no longer be filled in.'}
          </p>
        ) : (
          <div className="rounded-lg bg-white p-5 shadow-xs ring-1 ring-slate-200 sm:p-6">
            {activity.description && <p className="mb-4 text-sm text-slate-700">{activity.description}</p>}
            <MemberQuestionnaire activityId={id} questionnaire={questionnaire} initial={draft?.answers ?? []} hasDraft={Boolean(draft)} />
          </div>
        )}
      </MemberShell>
    );
  }

  if (activity.kind === 'appointment') {
    // Its schedule, or every active schedule when the activity names none.
    const named = activity.scheduleId ? await caller.me.schedule({ id: activity.scheduleId }).catch(() => null) : null;
    const offered = named ? [named] : activity.scheduleId ? [] : (await caller.me.schedules()).items;
    const schedules = await Promise.all(offered.map(async (s) => ({ ...s, slots: await freeTimes(caller, s.id) })));
    return (
      <MemberShell projectName={home.projectName}>
        {back}
        <h1 className="text-xl font-semibold text-slate-900">{activity.display}</h1>
        {activity.description && <p className="mt-1 text-sm text-slate-700">{activity.description}</p>}
        {!open ? (
          <p role="status" className="mt-4 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200">
            {activity.status === 'completed' ? 'This appointment is booked; you find it under “Your appointments”.' : activity.status === 'expired' ? 'The time to book this has passed. Your care team will contact you.' : 'This is no longer needed.'}
          </p>
        ) : schedules.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600">No calendar takes bookings at the moment. Your care team will contact you.</p>
        ) : (
          <div className="mt-6">
            <MemberBooking activityId={id} schedules={schedules} timeZone={home.timeZone} />
          </div>
        )}
      </MemberShell>
    );
  }

  const article = activity.kind === 'message' && activity.articleId ? await caller.me.article({ id: activity.articleId }).catch(() => null) : null;
  return (
    <MemberShell projectName={home.projectName}>
      {back}
      <article className="rounded-lg bg-white p-5 shadow-xs ring-1 ring-slate-200 sm:p-6" aria-labelledby="activity-title">
        <h1 id="activity-title" className="text-xl font-semibold text-slate-900">
          {article?.title ?? activity.display}
        </h1>
        {activity.endAt && <p className="mt-1 text-sm text-slate-600">Please do this by {longDay(activity.endAt, home.timeZone)}.</p>}
        {activity.description && <p className="mt-4 text-sm text-slate-700">{activity.description}</p>}
        {article && <Markdown className="mt-4">{article.body}</Markdown>}
        <div className="mt-6 flex justify-start">
          {open ? (
            <RowAction action={markActivityDone} id={activity.id} label={`Mark “${activity.display}” as ${activity.kind === 'message' ? 'read' : 'done'}`} text={activity.kind === 'message' ? 'I have read this' : 'Done'} primary />
          ) : (
            <p className="text-sm text-slate-600">{activity.status === 'completed' ? 'Done. Thank you.' : activity.status === 'expired' ? 'The time for this has passed.' : 'This is no longer needed.'}</p>
          )}
        </div>
      </article>
    </MemberShell>
  );
}
