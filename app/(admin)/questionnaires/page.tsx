import { QuestionnairesPage } from './questionnaires-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Questionnaires' };

export default function Page() {
  return <QuestionnairesPage />;
}
