'use client';

import { QuestionnaireForm } from '@/app/_components/questionnaire-form';
import type { Answer, Item } from '@/server/services/questionnaires/rules';
import { answerActivity } from '../../actions';

/** The member's form: the shared questionnaire form, saving through the member's own server actions. */
export function MemberQuestionnaire({
  activityId,
  questionnaire,
  initial,
  hasDraft,
}: {
  activityId: number;
  questionnaire: { title: string; description: string | null; items: Item[] };
  initial: Answer[];
  hasDraft: boolean;
}) {
  return (
    <>
      {hasDraft && <p className="mb-4 text-sm text-slate-600">You saved a draft earlier; your answers are filled in below.</p>}
      <QuestionnaireForm
        title={questionnaire.title}
        description={questionnaire.description}
        items={questionnaire.items}
        initial={initial}
        headingLevel={1}
        submitLabel="Send answers"
        onSubmit={(answers) => answerActivity(activityId, answers, true)}
        onSaveDraft={(answers) => answerActivity(activityId, answers, false)}
      />
    </>
  );
}
