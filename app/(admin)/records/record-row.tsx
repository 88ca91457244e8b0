'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { parseJsonObject } from '@/app/_components/errors';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, ErrorNotice, Td, TextAreaField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { When } from '@/app/_components/when';

type Row = { id: number; type: string; memberId: number; fields: Record<string, unknown>; updatedAt: string };

export function RecordRow({ record, memberLabel }: { record: Row; memberLabel: string }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [jsonError, setJsonError] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.records.list.queryKey() });
  const update = useMutation(saving(trpc.records.update.mutationOptions({ onSuccess: async () => { setEditing(false); await refresh(); } }), 'Record saved', { quietErrors: true }));
  const remove = useMutation(saving(trpc.records.delete.mutationOptions({ onSuccess: refresh }), 'Record deleted'));

  return (
    <>
      <tr className="hover:bg-slate-50">
        <Td className="tabular-nums text-slate-500">{record.id}</Td>
        <Td>
          <Badge tone="brand">{record.type}</Badge>
        </Td>
        <Td>
          <Link href={`/members/${record.memberId}`} className="text-brand-700 hover:underline">
            {memberLabel}
          </Link>
        </Td>
        <Td className="max-w-md truncate font-mono text-xs" >
          <span title={JSON.stringify(record.fields, null, 2)}>{JSON.stringify(record.fields)}</span>
        </Td>
        <Td className="whitespace-nowrap text-slate-500"><When at={record.updatedAt} /></Td>
        <Td className="whitespace-nowrap text-right">
          {isAdmin && (
            <span className="flex justify-end gap-1">
              <Button
                variant="ghost"
                aria-label={`Edit record ${record.id}`}
                onClick={() => {
                  setText(JSON.stringify(record.fields, null, 2));
                  setJsonError(undefined);
                  setEditing((v) => !v);
                }}
              >
                Edit
              </Button>
              <Button
                variant="ghost"
                className="text-red-700"
                aria-label={`Delete record ${record.id}`}
                busy={remove.isPending}
                onClick={() => {
                  if (window.confirm(`Delete record ${record.id}?`)) remove.mutate({ type: record.type, id: record.id });
                }}
              >
                Delete
              </Button>
            </span>
          )}
        </Td>
      </tr>
      {(editing || remove.error) && (
        <tr>
          <td colSpan={6} className="bg-slate-50 px-4 py-3">
            <ErrorNotice error={remove.error ?? update.error} />
            {editing && (
              <form
                aria-label={`Edit record ${record.id}`}
                className="space-y-3"
                onSubmit={(e) => {
                  e.preventDefault();
                  const parsed = parseJsonObject(text);
                  setJsonError(parsed.error);
                  if (!parsed.error) update.mutate({ type: record.type, id: record.id, fields: parsed.value!, replace: true });
                }}
              >
                <TextAreaField
                  label={`Fields of record ${record.id}`}
                  rows={Math.min(14, text.split('\n').length + 1)}
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setJsonError(parseJsonObject(e.target.value).error);
                  }}
                  error={jsonError}
                />
                <div className="flex gap-2">
                  <Button type="submit" busy={update.isPending}>
                    Save record
                  </Button>
                  <Button variant="secondary" onClick={() => setEditing(false)}>
                    Cancel
                  </Button>
                </div>
              </form>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
