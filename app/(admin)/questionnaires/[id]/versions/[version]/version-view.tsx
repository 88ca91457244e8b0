'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Button, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { QuestionnaireBuilder } from '../../../questionnaire-builder';

/** An old version as members answered it, read only; admins can start a new version from it. */
export function QuestionnaireVersionView({ id, version }: { id: number; version: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);
  const q = useQuery(trpc.questionnaires.get.queryOptions({ id, version }));
  const latest = useQuery(trpc.questionnaires.get.queryOptions({ id }));
  const versions = useQuery(trpc.questionnaires.versions.queryOptions({ id }));
  if (q.isPending || latest.isPending) return <Loading label="Loading the version…" />;
  if (q.error || latest.error) return <ErrorNotice error={q.error ?? latest.error} onRetry={() => void q.refetch()} />;
  const isLatest = q.data.version === latest.data.version;
  const responses = versions.data?.find((v) => v.version === version)?.responses ?? 0;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/questionnaires/${id}`} className="text-brand-700">
          ← {latest.data.title} (latest version)
        </Link>
      </p>
      <PageHeader
        title={`${q.data.title}, version ${q.data.version}`}
        description={
          isLatest
            ? 'This is the latest version.'
            : `An earlier version, shown as members answered it (${responses === 1 ? '1 response' : `${responses} responses`}). Answered versions never change.`
        }
        actions={
          <>
            {!isLatest && (
              <Link href={`/questionnaires/${id}/compare?from=${q.data.version}&to=${latest.data.version}`} className="inline-flex items-center rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-xs ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Compare with the latest
              </Link>
            )}
            {isAdmin && !editing && <Button onClick={() => setEditing(true)}>Start a new version from this one</Button>}
          </>
        }
      />
      {editing && (
        <p role="status" className="mb-4 rounded-md bg-brand-50 px-4 py-3 text-sm text-brand-700 ring-1 ring-brand-100">
          Editing a copy of version {q.data.version}. Saving makes it version {latest.data.version + 1}; version {q.data.version} stays as it is.
        </p>
      )}
      <QuestionnaireBuilder
        key={`${q.data.version}-${editing}`}
        questionnaire={{ ...q.data, status: latest.data.status }}
        readOnly={!editing}
        asNewVersion={editing}
        onSaved={() => router.push(`/questionnaires/${id}`)}
      />
    </>
  );
}
