import { MembersPage } from './members-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Members' };

export default function Page() {
  return <MembersPage />;
}
