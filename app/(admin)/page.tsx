import Link from 'next/link';
import { Badge, Card, PageHeader } from '@/app/_components/ui';
import { getCaller } from '@/app/_trpc/server';
import { dateTime, elapsed } from '@/app/_components/dates';
import { ActivityDashboard } from './activity-dashboard';
import { TodaysAppointments } from './todays-appointments';
import { startOfDateIn } from '@/server/core/offsets';
import { localDate } from '@/server/services/scheduling/rules';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Dashboard' };

export default async function DashboardPage() {
  const caller = await getCaller();
  const [overview, { current }, activities] = await Promise.all([caller.projects.overview(), caller.projects.mine(), caller.activities.dashboard()]);
  const failing = current.role === 'admin' ? await caller.webhooks.failing() : null;
  // Today in the project's time zone: its booked appointments, with member and schedule names.
  const today = localDate(new Date(), current.timeZone);
  const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const todays = await caller.appointments.list({ status: 'booked', from: startOfDateIn(today, current.timeZone).toISOString(), to: startOfDateIn(tomorrow, current.timeZone).toISOString(), limit: 200 });
  const todaysItems = [...todays.items].sort((a, b) => a.start.localeCompare(b.start));
  const [people, scheduleList] = await Promise.all([caller.members.names({ ids: [...new Set(todaysItems.map((a) => a.subjectId))] }), caller.schedules.list({ limit: 200 })]);
  const tiles = [
    { label: 'Members', value: overview.memberCount, href: '/members' },
    { label: 'Records', value: overview.recordCount, href: '/records' },
    { label: 'Record types', value: overview.recordTypeCount, href: '/record-types' },
    ...(current.role === 'admin'
      ? [{ label: 'Integrations', value: overview.integrationCount, href: '/integrations', note: `${overview.activeKeyCount} active API keys` }]
      : []),
  ];
  return (
    <>
      <PageHeader title={current.name} description="What this project holds, at a glance." />
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Project totals">
        {tiles.map((t) => (
          <li key={t.label}>
            <Link href={t.href} className="block rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 hover:ring-brand-500">
              <p className="text-sm text-slate-600">{t.label}</p>
              <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">{t.value}</p>
              {'note' in t && <p className="mt-1 text-xs text-slate-600">{t.note}</p>}
            </Link>
          </li>
        ))}
      </ul>
      <TodaysAppointments
        items={todaysItems}
        names={new Map(people.map((m) => [m.id, m.name ?? m.email ?? `Member #${m.id}`]))}
        schedules={new Map(scheduleList.items.map((s) => [s.id, s.display]))}
        timeZone={current.timeZone}
      />
      <ActivityDashboard data={activities} />
      {failing && (
        <section aria-label="Failing webhooks" className="mt-6 rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
          <div className="flex items-center justify-between">
            <h2 className="text-sm font-semibold text-slate-900">Failing webhooks</h2>
            <Link href="/webhooks" className="text-sm text-brand-700">
              All webhooks
            </Link>
          </div>
          {failing.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No webhook is failing or disabled.</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {failing.map((w) => (
                <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <Link href={`/webhooks/${w.id}`} className="font-medium text-brand-700 hover:underline">
                    {w.display}
                  </Link>
                  <span className="flex items-center gap-2 text-slate-600">
                    {w.enabled ? (
                      <span title={w.failingSince ? `since ${dateTime(w.failingSince, current.timeZone)}` : undefined}>
                        <Badge tone="amber">failing for {w.failingSince ? elapsed(w.failingSince) : 'a while'}</Badge>
                      </span>
                    ) : (
                      <Badge tone="red">disabled: {w.disabledReason}</Badge>
                    )}
                    {w.pending > 0 && <span>{w.pending} pending</span>}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <div className="mt-8 grid gap-4 lg:grid-cols-2">
        <Card title="Calling the API">
          <p className="text-sm text-slate-600">
            Integrations call <code className="rounded bg-slate-100 px-1">/api/v1</code> with{' '}
            <code className="rounded bg-slate-100 px-1">Authorization: Bearer &lt;API key&gt;</code>. Keys are created per
            integration and shown once.
          </p>
          <pre tabIndex={0} className="mt-3 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
            {`curl -H "Authorization: Bearer $CAREBASE_KEY" \\\n  "$ORIGIN/api/v1/record?fields=%7B%22plan%22%3A%22premium%22%7D"`}
          </pre>
          <p className="mt-3 text-sm">
            <Link href="/api-reference" className="font-medium text-brand-700 hover:underline">
              Open the API reference →
            </Link>
          </p>
        </Card>
        <Card title="Who reads what">
          <p className="text-sm text-slate-600">
            Admins read every record. Any other role reads only its own records, and only of record types whose
            permissions grant that role <em>read</em>. Edit the grants under{' '}
            <Link href="/record-types" className="font-medium text-brand-700 hover:underline">
              Record types
            </Link>
            .
          </p>
        </Card>
      </div>
    </>
  );
}
