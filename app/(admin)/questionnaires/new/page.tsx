import Link from 'next/link';
import { AdminOnly } from '@/app/_components/admin-only';
import { PageHeader } from '@/app/_components/ui';
import { QuestionnaireBuilder } from '../questionnaire-builder';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New questionnaire' };

export default function Page() {
  return (
    <AdminOnly title="New questionnaire">
      <p className="mb-2 text-sm">
        <Link href="/questionnaires" className="text-brand-700 hover:underline">
          ← All questionnaires
        </Link>
      </p>
      <PageHeader title="New questionnaire" description="Questions members answer; answers to mapped questions feed their care plans." />
      <QuestionnaireBuilder />
    </AdminOnly>
  );
}
