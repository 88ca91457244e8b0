'use client';

import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { FormProps } from '@/app/_components/form-props';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { useDirtyForm } from '@/app/_components/dirty-form';
import { FormActions } from '@/app/_components/form-actions';
import { ErrorNotice, TextField } from '@/app/_components/ui';
import { createIntegrationInput } from '@/server/services/integrations/schemas';

export type IntegrationValues = z.output<typeof createIntegrationInput>;

export function IntegrationForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: FormProps<IntegrationValues>) {
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  const form = useDirtyForm(!busy);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const endpointUrl = String(f.get('endpointUrl') ?? '').trim();
    const checked = checkWith(createIntegrationInput, { display: String(f.get('display') ?? '').trim(), slug: String(f.get('slug') ?? '').trim(), endpointUrl: endpointUrl || null });
    setLocal(checked.errors ?? {});
    if (checked.value) onSubmit(checked.value);
  }
  return (
    <form ref={form.ref} onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="display" defaultValue={initial?.display ?? ''} error={errors.display} placeholder="CRM sync" />
        <TextField label="Slug" name="slug" defaultValue={initial?.slug ?? ''} error={errors.slug} placeholder="crm-sync" hint="Lower-case letters, digits and -" />
      </div>
      <TextField
        label="Endpoint URL"
        name="endpointUrl"
        type="url"
        defaultValue={initial?.endpointUrl ?? ''}
        error={errors.endpointUrl}
        placeholder="https://crm.example.org/carebase"
        hint="Optional. Webhook URLs starting with //endpoint are sent here."
      />
      <FormActions submitLabel={submitLabel} busy={busy} dirty={form.dirty} editing={Boolean(initial)} onCancel={onCancel} />
    </form>
  );
}
