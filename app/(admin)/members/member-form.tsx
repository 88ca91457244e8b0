'use client';

import { useState, type FormEvent } from 'react';
import type { FormProps } from '@/app/_components/form-props';
import { fieldErrorsOf, formErrorOf, parseJsonObject } from '@/app/_components/errors';
import { Button, ErrorNotice, TextAreaField, TextField } from '@/app/_components/ui';

export type MemberValues = { name: string | null; email: string | null; role: string; externalId: string | null; meta: Record<string, unknown> };

/** Create and edit share this form; empty text fields are sent as null. */
export function MemberForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: FormProps<MemberValues>) {
  const [metaText, setMetaText] = useState(JSON.stringify(initial?.meta ?? {}, null, 2));
  const [metaError, setMetaError] = useState<string | undefined>();
  const errors = fieldErrorsOf(error);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const meta = parseJsonObject(metaText);
    setMetaError(meta.error);
    if (meta.error) return;
    const text = (name: string) => {
      const v = String(form.get(name) ?? '').trim();
      return v === '' ? null : v;
    };
    onSubmit({ name: text('name'), email: text('email'), role: text('role') ?? 'user', externalId: text('externalId'), meta: meta.value! });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="name" defaultValue={initial?.name ?? ''} error={errors.name} />
        <TextField label="Email" name="email" type="email" defaultValue={initial?.email ?? ''} error={errors.email} />
        <TextField
          label="Role"
          name="role"
          defaultValue={initial?.role ?? 'user'}
          error={errors.role}
          hint="Free text; record type permissions grant access per role. The admin role may do everything."
        />
        <TextField label="External ID" name="externalId" defaultValue={initial?.externalId ?? ''} error={errors.externalId} hint="Your CRM's id for this person (optional)" />
      </div>
      <TextAreaField
        label="Meta (JSON object)"
        rows={4}
        value={metaText}
        onChange={(e) => {
          setMetaText(e.target.value);
          setMetaError(parseJsonObject(e.target.value).error);
        }}
        error={metaError ?? errors.meta}
      />
      <div className="flex gap-2">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
