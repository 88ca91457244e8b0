import { AdminOnly } from '@/app/_components/admin-only';
import { EventsPage } from './events-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Events' };

export default function Page() {
  return (
    <AdminOnly title="Events">
      <EventsPage />
    </AdminOnly>
  );
}
