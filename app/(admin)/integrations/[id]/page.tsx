import { notFound } from 'next/navigation';
import { AdminOnly } from '@/app/_components/admin-only';
import { IntegrationDetail } from './integration-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Integration' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return (
    <AdminOnly title="Integration">
      <IntegrationDetail id={id} />
    </AdminOnly>
  );
}
