import { notFound } from 'next/navigation';
import { AdminOnly } from '@/app/_components/admin-only';
import { DeliveryDetail } from './delivery-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Delivery' };

export default async function Page({ params }: { params: Promise<{ id: string; deliveryId: string }> }) {
  const { id, deliveryId } = await params;
  const [w, d] = [Number(id), Number(deliveryId)];
  if (!(w > 0 && d > 0 && Number.isInteger(w) && Number.isInteger(d))) notFound();
  return (
    <AdminOnly title="Delivery">
      <DeliveryDetail webhookId={w} deliveryId={d} />
    </AdminOnly>
  );
}
