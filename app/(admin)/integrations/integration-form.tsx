'use client';

import type { FormEvent } from 'react';
import type { FormProps } from '@/app/_components/form-props';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { Button, ErrorNotice, TextField } from '@/app/_components/ui';

export type IntegrationValues = { display: string; slug: string; endpointUrl: string | null };

export function IntegrationForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: FormProps<IntegrationValues>) {
  const errors = fieldErrorsOf(error);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const endpointUrl = String(f.get('endpointUrl') ?? '').trim();
    onSubmit({ display: String(f.get('display') ?? '').trim(), slug: String(f.get('slug') ?? '').trim(), endpointUrl: endpointUrl || null });
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
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
