import { TemplatesPage } from './templates-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Templates' };

export default function Page() {
  return <TemplatesPage />;
}
