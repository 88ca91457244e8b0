import { notFound } from 'next/navigation';
import { AdminOnly } from '@/app/_components/admin-only';
import { WebhookDetail } from './webhook-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Webhook' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return (
    <AdminOnly title="Webhook">
      <WebhookDetail id={id} />
    </AdminOnly>
  );
}
