import { AdminOnly } from '@/app/_components/admin-only';
import { WebhooksPage } from './webhooks-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Webhooks' };

export default function Page() {
  return (
    <AdminOnly title="Webhooks">
      <WebhooksPage />
    </AdminOnly>
  );
}
