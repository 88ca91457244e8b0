import { RecordTypesPage } from './record-types-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Record types' };

export default function Page() {
  return <RecordTypesPage />;
}
