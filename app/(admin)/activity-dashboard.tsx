import Link from 'next/link';
import { ActivityStatus, relativeTime } from '@/app/_components/activity-status';

import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/root';

type Dashboard = inferRouterOutputs<AppRouter>['activities']['dashboard'];
type Section = Dashboard['dueSoon'];

function ActivitySection({ title, section, empty, when }: { title: string; section: Section; empty: string; when: (a: Section['items'][number]) => string }) {
  return (
    <section aria-label={title} className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-baseline justify-between">
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        <span className="text-2xl font-semibold tabular-nums text-slate-900">{section.total}</span>
      </div>
      {section.items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {section.items.map((a) => (
            <li key={a.id} className="py-2 text-sm">
              <div className="flex items-center justify-between gap-2">
                <Link href={`/careplans/${a.careplanId}`} className="truncate font-medium text-brand-700 hover:underline">
                  {a.display}
                </Link>
                <ActivityStatus status={a.status} />
              </div>
              <p className="truncate text-xs text-slate-500">
                {a.memberName ?? `member #${a.subjectId}`} · {a.careplanTitle} · {when(a)}
              </p>
            </li>
          ))}
          {section.total > section.items.length && <li className="pt-2 text-xs text-slate-500">and {section.total - section.items.length} more</li>}
        </ul>
      )}
    </section>
  );
}

/** Due soon, overdue and recently expired activities across the project's care plans (decision 0008). */
export function ActivityDashboard({ data }: { data: Dashboard }) {
  const at = (iso: string) => relativeTime(iso);
  return (
    <div className="mt-6">
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Care activities</h2>
      <div className="grid gap-4 lg:grid-cols-3">
        <ActivitySection title="Due soon" section={data.dueSoon} empty="Nothing starts in the next 7 days." when={(a) => `starts ${at(a.activateAt)}`} />
        <ActivitySection
          title="Overdue"
          section={data.overdue}
          empty="Every started activity is done."
          when={(a) => (a.endAt ? `started ${relativeTime(a.activateAt)}, expires ${relativeTime(a.endAt)}` : `started ${relativeTime(a.activateAt)}, no deadline`)}
        />
        <ActivitySection title="Recently expired" section={data.recentlyExpired} empty="No activity expired in the last 7 days." when={(a) => `expired ${at(a.updatedAt)}`} />
      </div>
    </div>
  );
}
