'use client';

import { useState, type FormEvent } from 'react';
import type { FormProps } from '@/app/_components/form-props';
import type { z } from 'zod';
import { fieldErrorsOf, formErrorOf, parseJsonObject } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { createMemberInput } from '@/server/services/members/schemas';
import { useDirtyForm } from '@/app/_components/dirty-form';
import { FormActions } from '@/app/_components/form-actions';
import { ErrorNotice, SelectField, TextAreaField, TextField } from '@/app/_components/ui';

/** Every IANA zone the browser knows, for a member's own time zone. */
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];

export type MemberValues = z.output<typeof createMemberInput>;

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
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  const form = useDirtyForm(!busy);

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
    // The API's own rules, checked before sending (the server checks them again).
    const checked = checkWith(createMemberInput, { name: text('name'), email: text('email'), role: text('role') ?? 'user', externalId: text('externalId'), timeZone: text('timeZone'), meta: meta.value! });
    setLocal(checked.errors ?? {});
    if (checked.value) onSubmit(checked.value);
  }

  return (
    <form ref={form.ref} onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
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
        <SelectField label="Time zone" name="timeZone" defaultValue={initial?.timeZone ?? ''} error={errors.timeZone} hint="Dates on the member's own pages are shown in it">
          <option value="">The project&apos;s time zone</option>
          {ZONES.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label="Meta (JSON object)"
        name="meta"
        rows={4}
        value={metaText}
        onChange={(e) => {
          setMetaText(e.target.value);
          setMetaError(parseJsonObject(e.target.value).error);
        }}
        error={metaError ?? errors.meta}
      />
      <FormActions submitLabel={submitLabel} busy={busy} dirty={form.dirty} editing={Boolean(initial)} onCancel={onCancel} />
    </form>
  );
}
