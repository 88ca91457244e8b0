'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useSaving } from '@/app/_components/saving';
import { SecretOnce } from '@/app/_components/secret-once';
import { Card, PageHeader } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { WebhookForm } from '../webhook-form';

export function NewWebhook() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const saving = useSaving();
  const [created, setCreated] = useState<{ id: number; secret: string } | null>(null);
  const create = useMutation(
    saving(
      trpc.webhooks.create.mutationOptions({
        onSuccess: async (w) => {
          await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
          setCreated({ id: w.id, secret: w.secret });
        },
      }),
      (w) => `Webhook “${w.display}” created`,
      { quietErrors: true },
    ),
  );
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/webhooks" className="text-brand-700 hover:underline">
          ← All webhooks
        </Link>
      </p>
      <PageHeader title="New webhook" description="Carebase calls this URL when the chosen events happen." />
      {created ? (
        <SecretOnce
          label="Signing secret"
          secret={created.secret}
          note="Verify each call with it (Standard Webhooks). Admins can reveal it again on the webhook page."
          onDone={() => router.push(`/webhooks/${created.id}`)}
        />
      ) : (
        <Card>
          <WebhookForm submitLabel="Create webhook" busy={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => router.push('/webhooks')} />
        </Card>
      )}
    </>
  );
}
