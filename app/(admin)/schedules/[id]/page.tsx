import { notFound } from 'next/navigation';
import { ScheduleDetail } from './schedule-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Schedule' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <ScheduleDetail id={id} />;
}
