'use client';

import { useActionState } from 'react';
import { Button, ErrorNotice, TextField } from '@/app/_components/ui';
import { login, type LoginState } from './actions';

export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(login, {});
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="next" value={next} />
      {state.error && <ErrorNotice error={{ message: state.error }} />}
      <TextField label="Email" name="email" type="email" autoComplete="username" required defaultValue={state.email} />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      <Button type="submit" busy={pending} className="w-full">
        Sign in
      </Button>
    </form>
  );
}
