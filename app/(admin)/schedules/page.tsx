import { SchedulesPage } from './schedules-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Schedules' };

export default function Page() {
  return <SchedulesPage />;
}
