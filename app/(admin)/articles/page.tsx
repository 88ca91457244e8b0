import { ArticlesPage } from './articles-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Articles' };

export default function Page() {
  return <ArticlesPage />;
}
