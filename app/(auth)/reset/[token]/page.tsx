import Link from 'next/link';
import { describeLink } from '@/server/auth/invitations';
import { LinkShell } from '../../link-shell';
import { ResetForm } from './reset-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Choose a new password' };

export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await describeLink(token);
  if (!link || link.kind !== 'reset' || link.status !== 'pending') {
    return (
      <LinkShell title="This link cannot be used">
        <p role="alert" className="text-sm text-slate-700">
          {link?.status === 'expired' ? 'It has expired: reset links are valid for 24 hours.' : link?.status === 'used' ? 'It has already been used.' : 'The link is not valid.'} Ask an
          admin of your project for a new one.
        </p>
        <p className="mt-4 text-sm">
          <Link href="/login" className="font-medium text-brand-700 underline">
            Go to sign in
          </Link>
        </p>
      </LinkShell>
    );
  }
  return (
    <LinkShell title="Choose a new password" intro={`For ${link.email}. Your old password no longer works.`}>
      <ResetForm token={token} email={link.email} />
    </LinkShell>
  );
}
