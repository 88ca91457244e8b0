'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';

/** Remembers the chosen project; the tRPC context checks membership on every call. */
export async function switchProject(form: FormData): Promise<void> {
  const projectId = Number(form.get('projectId'));
  if (Number.isInteger(projectId) && projectId > 0) {
    (await cookies()).set('cb_project', String(projectId), { httpOnly: true, sameSite: 'lax', path: '/' });
  }
  redirect('/');
}
