import { AdminOnly } from '@/app/_components/admin-only';
import { IntegrationsPage } from './integrations-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Integrations' };

export default function Page() {
  return (
    <AdminOnly title="Integrations & API keys">
      <IntegrationsPage />
    </AdminOnly>
  );
}
