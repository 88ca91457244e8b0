'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { memberLabel, QuestionnairePicker } from '@/app/_components/pickers';
import { QuestionnaireForm, type SaveResult } from '@/app/_components/questionnaire-form';
import { Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import type { Answer } from '@/server/services/questionnaires/rules';

type Failure = { message: string; data?: { fieldErrors?: { path: string; message: string }[] | null } | null };

/** The shared form's answer to a failed save: field problems go next to their questions, the rest above. */
export function saveFailure(e: unknown): SaveResult {
  const f = e as Failure;
  const problems = f.data?.fieldErrors ?? [];
  const own = problems.filter((p) => p.path === 'answers' || p.path.startsWith('answers.'));
  const rest = problems.filter((p) => !own.includes(p)).map((p) => p.message);
  return { problems: own, error: rest.length > 0 ? rest.join(' ') : own.length === 0 ? f.message : undefined };
}

/** A coordinator types in a paper form a member brought to a visit; it counts as the member's response. */
export function RespondOnBehalf({ memberId, questionnaireId, activityId }: { memberId: number; questionnaireId?: number; activityId?: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<{ id: number; label: string } | null>(questionnaireId ? { id: questionnaireId, label: '' } : null);
  const member = useQuery(trpc.members.names.queryOptions({ ids: [memberId] }));
  const questionnaire = useQuery({ ...trpc.questionnaires.get.queryOptions({ id: picked?.id ?? 0 }), enabled: Boolean(picked) });
  const create = useMutation(trpc.responses.create.mutationOptions());
  const who = member.data?.[0] ? memberLabel(member.data[0]) : `Member #${memberId}`;

  async function submit(answers: Answer[]): Promise<SaveResult> {
    try {
      const r = await create.mutateAsync({ questionnaireId: picked!.id, subjectId: memberId, activityId, status: 'completed', answers });
      await queryClient.invalidateQueries({ queryKey: trpc.responses.list.queryKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.activities.timeline.queryKey() });
      router.push(`/responses/${r.id}`);
    } catch (e) {
      return saveFailure(e);
    }
  }

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/members/${memberId}`} className="text-brand-700 hover:underline">
          ← {who}
        </Link>
      </p>
      <PageHeader
        title="Enter a response"
        description={<>On behalf of {who}, for example from a paper form brought to a visit.{activityId ? ' Submitting completes the care plan activity that asked for it.' : ''}</>}
      />
      <div className="max-w-2xl space-y-6">
        {!activityId && (
          <Card title="Questionnaire">
            <QuestionnairePicker value={picked?.id ?? null} selectedLabel={picked?.label || undefined} onChange={(o) => setPicked(o ? { id: o.id, label: o.label } : null)} hint="Active questionnaires only" />
          </Card>
        )}
        {picked && (
          <Card>
            {questionnaire.isPending ? (
              <Loading label="Loading questionnaire…" />
            ) : questionnaire.error ? (
              <ErrorNotice error={questionnaire.error} onRetry={() => void questionnaire.refetch()} />
            ) : (
              <QuestionnaireForm
                key={questionnaire.data.id}
                title={questionnaire.data.title}
                description={questionnaire.data.description}
                items={questionnaire.data.items}
                submitLabel="Submit response"
                onSubmit={submit}
              />
            )}
          </Card>
        )}
      </div>
    </>
  );
}
