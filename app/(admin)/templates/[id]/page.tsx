import { notFound } from 'next/navigation';
import { DefinitionDetail } from './definition-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Template' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0) notFound();
  return <DefinitionDetail id={id} />;
}
