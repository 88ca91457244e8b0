import { TeamPage } from './team-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Team' };

export default function Page() {
  return <TeamPage />;
}
