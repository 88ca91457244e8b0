import { AdminOnly } from '@/app/_components/admin-only';
import { ArticleEditor } from '../article-editor';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New article' };

export default function Page() {
  return (
    <AdminOnly title="New article">
      <ArticleEditor />
    </AdminOnly>
  );
}
