import { describeLink } from '@/server/auth/invitations';
import { LinkShell, UnusableLink } from '../../link-shell';
import { InviteForm } from './invite-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Join the team' };

const ROLE = { admin: 'an admin', coordinator: 'a care coordinator' } as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await describeLink(token);
  if (!link || link.kind !== 'invite' || link.status !== 'pending') {
    return (
      <UnusableLink title="This invitation cannot be used">
        {link?.status === 'expired'
          ? 'It has expired: invitations are valid for 7 days.'
          : link?.status === 'used'
            ? 'It has already been used. Sign in with the password you chose.'
            : 'The link is not valid (it may have been replaced by a newer invitation).'}{' '}
        Ask an admin of the project to invite you again.
      </UnusableLink>
    );
  }
  return (
    <LinkShell title={`Join ${link.projectName}`} intro={`You are invited as ${ROLE[link.role ?? 'coordinator']} with ${link.email}.`}>
      <InviteForm token={token} email={link.email} hasAccount={link.hasAccount} />
    </LinkShell>
  );
}
