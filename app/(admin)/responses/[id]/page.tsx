import { notFound } from 'next/navigation';
import { ResponseView } from './response-view';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Questionnaire response' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <ResponseView id={id} />;
}
