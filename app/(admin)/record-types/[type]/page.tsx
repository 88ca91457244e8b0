import { PermissionMatrixPage } from './permission-matrix';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Record type' };

export default async function Page({ params }: { params: Promise<{ type: string }> }) {
  const { type } = await params;
  return <PermissionMatrixPage type={decodeURIComponent(type)} />;
}
