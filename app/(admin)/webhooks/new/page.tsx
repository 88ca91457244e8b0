import { AdminOnly } from '@/app/_components/admin-only';
import { NewWebhook } from './new-webhook';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New webhook' };

export default function Page() {
  return (
    <AdminOnly title="New webhook">
      <NewWebhook />
    </AdminOnly>
  );
}
