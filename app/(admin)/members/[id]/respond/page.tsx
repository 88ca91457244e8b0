import { notFound } from 'next/navigation';
import { RespondOnBehalf } from './respond-on-behalf';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Enter a response' };

const positive = (v: string | undefined) => {
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ questionnaireId?: string; activityId?: string }> }) {
  const id = positive((await params).id);
  if (!id) notFound();
  const query = await searchParams;
  return <RespondOnBehalf memberId={id} questionnaireId={positive(query.questionnaireId)} activityId={positive(query.activityId)} />;
}
