import { DefinitionsPage } from './definitions-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Templates' };

export default function Page() {
  return <DefinitionsPage />;
}
