import { AdminOnly } from '@/app/_components/admin-only';
import { AuditPage } from './audit-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Audit trail' };

export default function Page() {
  return (
    <AdminOnly title="Audit trail">
      <AuditPage />
    </AdminOnly>
  );
}
