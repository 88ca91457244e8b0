import { notFound } from 'next/navigation';
import { CareplanDetail } from './careplan-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Care plan' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return <CareplanDetail id={id} />;
}
