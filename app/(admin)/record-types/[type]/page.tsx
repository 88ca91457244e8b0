import { cache } from 'react';
import { getCaller } from '@/app/_trpc/server';
import { loadOrNotFound } from '@/app/_trpc/load';
import { notFound } from 'next/navigation';
import { PermissionMatrixPage } from './permission-matrix';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ type: string }> };
const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    notFound();
  }
};
const load = cache(async (type: string) => {
  const caller = await getCaller();
  return loadOrNotFound(() => caller.recordTypes.get({ type }));
});

export async function generateMetadata({ params }: Props) {
  const type = decoded((await params).type);
  await load(type);
  return { title: `Record type ${type}` };
}

export default async function Page({ params }: Props) {
  const type = decoded((await params).type);
  await load(type);
  return <PermissionMatrixPage type={type} />;
}
