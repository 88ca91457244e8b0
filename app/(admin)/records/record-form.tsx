'use client';

import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf, parseJsonObject } from '@/app/_components/errors';
import { MemberPicker, RecordTypeField } from '@/app/_components/pickers';
import { checkWith } from '@/app/_components/form-validation';
import { Button, ErrorNotice, TextAreaField } from '@/app/_components/ui';
import { createRecordInput, recordTypeName } from '@/server/services/records/schemas';

export function RecordForm({
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  error: unknown;
  onSubmit: (v: { type: string; memberId: number; fields: Record<string, unknown> }) => void;
  onCancel: () => void;
}) {
  const [type, setType] = useState('');
  const [member, setMember] = useState<{ id: number; label: string } | null>(null);
  const [fieldsText, setFieldsText] = useState('{\n  \n}');
  const [local, setLocal] = useState<Record<string, string | undefined>>({});
  const errors = { ...fieldErrorsOf(error), ...Object.fromEntries(Object.entries(local).filter(([, v]) => v)) } as Record<string, string>;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const fields = parseJsonObject(fieldsText);
    // The API's rules (a type name, a member, a JSON object), with the empty pickers said for people.
    const checked = checkWith(createRecordInput.extend({ type: recordTypeName }), { type: type.trim(), memberId: member?.id, fields: fields.value });
    setLocal({
      ...(checked.errors ?? {}),
      ...(!type.trim() ? { type: 'Choose or type a record type' } : {}),
      ...(!member ? { memberId: 'Choose a member' } : {}),
      ...(fields.error ? { fields: fields.error } : {}),
    });
    if (checked.value && !fields.error) onSubmit(checked.value);
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label="New record">
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <RecordTypeField value={type} onChange={setType} placeholder="profile" error={errors.type} hint="A record type, or any name (then only admins can read it)" />
        </div>
        <MemberPicker required value={member?.id ?? null} selectedLabel={member?.label} onChange={(o) => setMember(o)} error={errors.memberId} />
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
