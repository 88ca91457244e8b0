'use client';

import { useActionState, useState } from 'react';
import { Button, ErrorNotice, TextField } from '@/app/_components/ui';
import { acceptInvite, type LinkFormState } from './actions';

export function InviteForm({ token, email, hasAccount }: { token: string; email: string; hasAccount: boolean }) {
  const [state, action, pending] = useActionState<LinkFormState, FormData>(acceptInvite, {});
  const f = state.fields ?? {};
  // Controlled, so what was typed stays after a failed attempt (a form action resets its fields).
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return (
    <form action={action} className="space-y-4" aria-label="Accept the invitation" noValidate>
      <input type="hidden" name="token" value={token} />
      {state.message && <ErrorNotice error={{ message: state.message }} />}
      <TextField label="Email" value={email} readOnly autoComplete="username" />
      {hasAccount ? (
        <TextField label="Your password" name="password" type="password" autoComplete="current-password" required error={f.password} value={password} onChange={(e) => setPassword(e.target.value)} hint="You already have a Carebase account: confirm it's you." />
      ) : (
        <>
          <TextField label="Your name" name="name" autoComplete="name" required error={f.name} value={name} onChange={(e) => setName(e.target.value)} />
          <TextField label="Choose a password" name="password" type="password" autoComplete="new-password" required error={f.password} value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 8 characters" />
          <TextField label="Repeat the password" name="confirm" type="password" autoComplete="new-password" required error={f.confirm} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </>
      )}
      <Button type="submit" busy={pending} className="w-full">
        {hasAccount ? 'Join the project' : 'Create my account'}
      </Button>
    </form>
  );
}
