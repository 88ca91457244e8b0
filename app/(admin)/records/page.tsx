import { RecordsPage } from './records-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Records' };

export default function Page() {
  return <RecordsPage />;
}
