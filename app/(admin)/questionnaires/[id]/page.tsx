import { notFound } from 'next/navigation';
import { QuestionnaireDetail } from './questionnaire-detail';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Questionnaire' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <QuestionnaireDetail id={id} />;
}
