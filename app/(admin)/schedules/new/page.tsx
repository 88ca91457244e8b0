import Link from 'next/link';
import { PageHeader } from '@/app/_components/ui';
import { ScheduleEditor } from '../schedule-editor';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New schedule' };

export default function Page() {
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/schedules" className="text-brand-700 hover:underline">
          ← All schedules
        </Link>
      </p>
      <PageHeader title="New schedule" description="A calendar members and coordinators book: a clinician, a room, a phone line." />
      <ScheduleEditor />
    </>
  );
}
