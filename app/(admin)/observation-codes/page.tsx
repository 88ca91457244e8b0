import { ObservationCodesPage } from './observation-codes-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Observation codes' };

export default function Page() {
  return <ObservationCodesPage />;
}
