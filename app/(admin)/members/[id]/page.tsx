import { notFound } from 'next/navigation';
import { MemberDetail } from './member-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Member' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return <MemberDetail id={id} />;
}
