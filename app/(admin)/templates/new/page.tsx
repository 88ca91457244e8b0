import Link from 'next/link';
import { AdminOnly } from '@/app/_components/admin-only';
import { PageHeader } from '@/app/_components/ui';
import { DefinitionEditor } from '../definition-editor';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'New template' };

export default function Page() {
  return (
    <AdminOnly title="New template">
      <p className="mb-2 text-sm">
        <Link href="/templates" className="text-brand-700 hover:underline">
          ← All templates
        </Link>
      </p>
      <PageHeader title="New template" />
      <DefinitionEditor initial={{ slug: '', title: '', inputs: [], actions: [] }} />
    </AdminOnly>
  );
}
