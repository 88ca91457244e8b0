import { notFound } from 'next/navigation';
import { MemberDetail } from './member-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Member' };

export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ bookActivity?: string; schedule?: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  const query = await searchParams;
  const positive = (v?: string) => (Number.isSafeInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
  return <MemberDetail id={id} bookActivity={positive(query.bookActivity)} bookSchedule={positive(query.schedule)} />;
}
