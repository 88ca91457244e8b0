import type { ActivityDto } from '@/server/services/activities/schemas';
import type { CareplanDto } from '@/server/services/careplans/schemas';
import { Badge } from './ui';

export const ACTIVITY_TONE = { proposed: 'slate', scheduled: 'brand', expired: 'amber', completed: 'green', cancelled: 'slate' } as const satisfies Record<ActivityDto['status'], string>;

export const CAREPLAN_TONE = { ongoing: 'brand', completed: 'green', cancelled: 'slate' } as const satisfies Record<CareplanDto['status'], string>;

export function ActivityStatus({ status }: { status: ActivityDto['status'] }) {
  return <Badge tone={ACTIVITY_TONE[status]}>{status}</Badge>;
}

/** "in 5 min", "3 h ago": how far a time is from now, for lists where the exact time is in the title. */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  const abs = Math.abs(diff);
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  const [ms, unit] = units.find(([m]) => abs >= m) ?? [1_000, 's'];
  const n = Math.round(abs / ms);
  return diff >= 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}
