'use client';

import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf, parseJsonObject } from '@/app/_components/errors';
import { Button, ErrorNotice, SelectField, TextAreaField, TextField } from '@/app/_components/ui';

type Option = { id: number; label: string };

export function RecordForm({
  types,
  members,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  types: string[];
  members: Option[];
  busy: boolean;
  error: unknown;
  onSubmit: (v: { type: string; memberId: number; fields: Record<string, unknown> }) => void;
  onCancel: () => void;
}) {
  const [fieldsText, setFieldsText] = useState('{\n  \n}');
  const [local, setLocal] = useState<Record<string, string | undefined>>({});
  const errors = { ...fieldErrorsOf(error), ...Object.fromEntries(Object.entries(local).filter(([, v]) => v)) } as Record<string, string>;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const type = String(form.get('type') ?? '').trim();
    const memberId = Number(form.get('memberId'));
    const fields = parseJsonObject(fieldsText);
    const next = {
      type: type ? undefined : 'Choose or type a record type',
      memberId: memberId > 0 ? undefined : 'Choose a member',
      fields: fields.error,
    };
    setLocal(next);
    if (next.type || next.memberId || next.fields) return;
    onSubmit({ type, memberId, fields: fields.value! });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="New record">
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Type" name="type" list="record-type-options" placeholder="profile" error={errors.type} hint="A record type, or any name (then only admins can read it)" />
        <datalist id="record-type-options">
          {types.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <SelectField label="Member" name="memberId" defaultValue="" error={errors.memberId}>
          <option value="" disabled>
            Choose a member…
          </option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label="Fields (JSON object)"
        rows={6}
        value={fieldsText}
        onChange={(e) => {
          setFieldsText(e.target.value);
          setLocal((l) => ({ ...l, fields: parseJsonObject(e.target.value).error }));
        }}
        error={errors.fields}
      />
      <div className="flex gap-2">
        <Button type="submit" busy={busy}>
          Create record
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
