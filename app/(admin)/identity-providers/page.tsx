import { headers } from 'next/headers';
import { AdminOnly } from '@/app/_components/admin-only';
import { IdentityProvidersPage } from './identity-providers-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Identity providers' };

export default async function Page() {
  const h = await headers();
  const origin = `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host') ?? 'localhost:3000'}`;
  return (
    <AdminOnly title="Identity providers">
      <IdentityProvidersPage origin={origin} />
    </AdminOnly>
  );
}
