import { cache } from 'react';
import { AdminOnly } from '@/app/_components/admin-only';
import { getCaller } from '@/app/_trpc/server';
import { idFrom, loadOrNotFound } from '@/app/_trpc/load';
import { WebhookDetail } from './webhook-detail';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };
const load = cache(async (id: number) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.webhooks.get({ id }));
});

export async function generateMetadata({ params }: Props) {
  const w = await load(idFrom((await params).id));
  return { title: w ? w.display : 'Webhook' };
}

export default async function Page({ params }: Props) {
  const id = idFrom((await params).id);
  await load(id);
  return (
    <AdminOnly title={'Webhook'}>
      <WebhookDetail id={id} />
    </AdminOnly>
  );
}
