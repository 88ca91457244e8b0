'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Button, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { DefinitionEditor } from '../../../definition-editor';
import { editorValueOf } from '../../definition-detail';

/** An old version as it was, read only; admins can start a new version from it. */
export function VersionView({ id, version }: { id: number; version: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);
  const template = useQuery(trpc.definitions.get.queryOptions({ id, version }));
  const latest = useQuery(trpc.definitions.get.queryOptions({ id }));
  const versions = useQuery(trpc.definitions.versions.queryOptions({ id }));
  if (template.isPending || latest.isPending) return <Loading label="Loading the version…" />;
  if (template.error || latest.error) return <ErrorNotice error={template.error ?? latest.error} onRetry={() => void template.refetch()} />;
  const t = template.data;
  const isLatest = t.version === latest.data.version;
  const uses = versions.data?.find((v) => v.version === version)?.careplans ?? 0;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/templates/${id}`} className="text-brand-700">
          ← {latest.data.title} (latest version)
        </Link>
      </p>
      <PageHeader
        title={`${t.title}, version ${t.version}`}
        description={
          isLatest
            ? 'This is the latest version.'
            : `An earlier version, shown as it was saved. ${uses === 1 ? 'One care plan stays' : uses > 1 ? `${uses} care plans stay` : 'No care plan stays'} on it; versions in use never change.`
        }
        actions={
          <>
            {!isLatest && (
              <Link href={`/templates/${id}/compare?from=${t.version}&to=${latest.data.version}`} className="inline-flex items-center rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-xs ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Compare with the latest
              </Link>
            )}
            {isAdmin && !editing && <Button onClick={() => setEditing(true)}>Start a new version from this one</Button>}
          </>
        }
      />
      {editing && (
        <p role="status" className="mb-4 rounded-md bg-brand-50 px-4 py-3 text-sm text-brand-700 ring-1 ring-brand-100">
          Editing a copy of version {t.version}. Saving makes it version {latest.data.version + 1}, the latest; version {t.version} stays as it is.
        </p>
      )}
      <DefinitionEditor
        key={`${t.version}-${editing}`}
        initial={editorValueOf(t)}
        definitionId={id}
        readOnly={!editing}
        asNewVersion={editing}
        onSaved={() => router.push(`/templates/${id}`)}
      />
    </>
  );
}
