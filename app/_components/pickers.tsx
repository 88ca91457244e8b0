'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId } from 'react';
import { useTRPC } from '@/app/_trpc/client';
import { SearchSelect, type OptionsSource, type PickOption } from './search-select';
import { TextField } from './ui';

const PICK_LIMIT = 20;

type PickerProps = {
  placeholder?: string;
  label?: string;
  value: number | null;
  selectedLabel?: string;
  onChange: (option: PickOption | null) => void;
  error?: string | null;
  hint?: string;
  required?: boolean;
  className?: string;
};

/** Turns a paged list answer into picker options. */
function source<T>(data: { items: T[]; next: number | null } | undefined, isLoading: boolean, toOption: (item: T) => PickOption) {
  return { options: (data?.items ?? []).map(toOption), isLoading, hasMore: (data?.next ?? null) !== null };
}

export const memberLabel = (m: { id: number; name: string | null; email: string | null }) => m.name ?? m.email ?? `Member #${m.id}`;

export function MemberPicker({ label = 'Member', ...props }: PickerProps) {
  const trpc = useTRPC();
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.members.list.queryOptions({ search: search || undefined, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (m) => ({ id: m.id, label: memberLabel(m), detail: m.email && m.name ? m.email : undefined }));
  };
  return <SearchSelect label={label} placeholder="Search by name or email" useOptions={useOptions} {...props} />;
}

export function DefinitionPicker({ label = 'Template', ...props }: PickerProps) {
  const trpc = useTRPC();
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.definitions.list.queryOptions({ search: search || undefined, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (d) => ({ id: d.id, label: d.title, detail: `${d.slug} · v${d.version}` }));
  };
  return <SearchSelect label={label} placeholder="Search templates" useOptions={useOptions} {...props} />;
}

export function IntegrationPicker({ label = 'Integration', ...props }: PickerProps) {
  const trpc = useTRPC();
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.integrations.list.queryOptions({ search: search || undefined, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (i) => ({ id: i.id, label: i.display, detail: i.endpointUrl ?? 'no endpoint URL' }));
  };
  return <SearchSelect label={label} placeholder="Search integrations" useOptions={useOptions} {...props} />;
}

export function ObservationCodePicker({ label = 'Observation code', type, selectedLabel, ...props }: PickerProps & { type?: 'date' | 'number' | 'string' | 'boolean' }) {
  const trpc = useTRPC();
  // A stored id without a label (an item or input loaded from the server) is looked up so the picker names it.
  const named = useQuery({ ...trpc.observationCodes.get.queryOptions({ id: props.value ?? 0 }), enabled: Boolean(props.value) && !selectedLabel });
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.observationCodes.list.queryOptions({ search: search || undefined, type, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (c) => ({ id: c.id, label: c.display, detail: `${c.slug} · ${c.type}` }));
  };
  return <SearchSelect label={label} placeholder="Search codes" useOptions={useOptions} selectedLabel={selectedLabel ?? named.data?.display} {...props} />;
}

/**
 * A record type name: free text (any name may be used) with the project's matching types suggested as
 * you type, searched on the server.
 */
export function RecordTypeField({
  label = 'Type',
  value,
  onChange,
  error,
  hint,
  placeholder,
}: {
  label?: string;
  value: string;
  onChange: (type: string) => void;
  error?: string | null;
  hint?: string;
  placeholder?: string;
}) {
  const trpc = useTRPC();
  const listId = useId();
  const deferred = useDeferredValue(value.trim());
  const types = useQuery({ ...trpc.recordTypes.list.queryOptions({ search: deferred || undefined, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
  return (
    <>
      <TextField label={label} value={value} onChange={(e) => onChange(e.target.value)} list={listId} error={error} hint={hint} placeholder={placeholder} autoComplete="off" />
      <datalist id={listId}>
        {(types.data?.items ?? []).map((t) => (
          <option key={t.id} value={t.type} />
        ))}
      </datalist>
    </>
  );
}

/** An article (message actions); a stored id without a label is looked up so the picker names it. */
export function ArticlePicker({ label = 'Article', selectedLabel, ...props }: PickerProps) {
  const trpc = useTRPC();
  const named = useQuery({ ...trpc.articles.get.queryOptions({ id: props.value ?? 0 }), enabled: Boolean(props.value) && !selectedLabel });
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.articles.list.queryOptions({ search: search || undefined, limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (a) => ({ id: a.id, label: a.title, detail: `${a.slug} · ${a.status}` }));
  };
  return <SearchSelect label={label} placeholder="Search articles" useOptions={useOptions} selectedLabel={selectedLabel ?? named.data?.title} {...props} />;
}

/** A questionnaire (questionnaire actions); only active ones can be answered, so those are offered. */
export function QuestionnairePicker({ label = 'Questionnaire', selectedLabel, ...props }: PickerProps) {
  const trpc = useTRPC();
  const named = useQuery({ ...trpc.questionnaires.get.queryOptions({ id: props.value ?? 0 }), enabled: Boolean(props.value) && !selectedLabel });
  const useOptions: OptionsSource = (search) => {
    const q = useQuery({ ...trpc.questionnaires.list.queryOptions({ search: search || undefined, status: 'active', limit: PICK_LIMIT }), placeholderData: keepPreviousData });
    return source(q.data, q.isFetching, (x) => ({ id: x.id, label: x.title, detail: `${x.slug} · v${x.version}` }));
  };
  return <SearchSelect label={label} placeholder="Search questionnaires" useOptions={useOptions} selectedLabel={selectedLabel ?? named.data?.title} {...props} />;
}
