import { cache } from 'react';
import { AdminOnly } from '@/app/_components/admin-only';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { DeliveryDetail } from './delivery-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string; deliveryId: string }> };
const load = cache(async (id: number, deliveryId: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.webhooks.delivery({ id, deliveryId }));
});

export async function generateMetadata({ params }: Props) {
  const { id, deliveryId } = await params;
  const d = await load(idFrom(id), idFrom(deliveryId));
  return { title: d ? `Delivery ${d.id} · ${d.event}` : 'Delivery' };
}

export default async function Page({ params }: Props) {
  const { id, deliveryId } = await params;
  const [w, d] = [idFrom(id), idFrom(deliveryId)];
  await load(w, d);
  return (
    <AdminOnly title="Delivery">
      <DeliveryDetail webhookId={w} deliveryId={d} />
    </AdminOnly>
  );
}
