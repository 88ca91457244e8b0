'use client';

import { useActionState, useState } from 'react';
import { Button, ErrorNotice, TextField } from '@/app/_components/ui';
import { completeReset, type LinkFormState } from '../../invite/[token]/actions';

export function ResetForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<LinkFormState, FormData>(completeReset, {});
  const f = state.fields ?? {};
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return (
    <form action={action} className="space-y-4" aria-label="Choose a new password" noValidate>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="email" value={email} autoComplete="username" />
      {state.message && <ErrorNotice error={{ message: state.message }} />}
      <TextField label="New password" name="password" type="password" autoComplete="new-password" required error={f.password} value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 8 characters" />
      <TextField label="Repeat the password" name="confirm" type="password" autoComplete="new-password" required error={f.confirm} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <Button type="submit" busy={pending} className="w-full">
        Set password and sign in
      </Button>
    </form>
  );
}
