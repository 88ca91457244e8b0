import { CareplansPage } from './careplans-page';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Care plans' };

export default async function Page({ searchParams }: { searchParams: Promise<{ member?: string }> }) {
  const member = Number((await searchParams).member);
  return <CareplansPage initialSubjectId={Number.isInteger(member) && member > 0 ? member : undefined} />;
}
