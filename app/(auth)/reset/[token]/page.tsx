import { describeLink } from '@/server/auth/invitations';
import { LinkShell, UnusableLink } from '../../link-shell';
import { ResetForm } from './reset-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Choose a new password' };

export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await describeLink(token);
  if (!link || link.kind !== 'reset' || link.status !== 'pending') {
    return (
      <UnusableLink title="This link cannot be used">
        {link?.status === 'expired' ? 'It has expired: reset links are valid for 24 hours.' : link?.status === 'used' ? 'It has already been used.' : 'The link is not valid.'} Ask an admin
        of your project for a new one.
      </UnusableLink>
    );
  }
  return (
    <LinkShell title="Choose a new password" intro={`For ${link.email}. Your old password no longer works.`}>
      <ResetForm token={token} email={link.email} />
    </LinkShell>
  );
}
