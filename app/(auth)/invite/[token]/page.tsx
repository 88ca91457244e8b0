import Link from 'next/link';
import { describeLink } from '@/server/auth/invitations';
import { LinkShell } from '../../link-shell';
import { InviteForm } from './invite-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Join the team' };

const ROLE = { admin: 'an admin', coordinator: 'a care coordinator' } as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await describeLink(token);
  if (!link || link.kind !== 'invite' || link.status !== 'pending') {
    return (
      <LinkShell title="This invitation cannot be used">
        <p role="alert" className="text-sm text-slate-700">
          {link?.status === 'expired'
            ? 'It has expired: invitations are valid for 7 days.'
            : link?.status === 'used'
              ? 'It has already been used. Sign in with the password you chose.'
              : 'The link is not valid (it may have been replaced by a newer invitation).'}{' '}
          Ask an admin of the project to invite you again.
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
    <LinkShell title={`Join ${link.projectName}`} intro={`You are invited as ${ROLE[link.role ?? 'coordinator']} with ${link.email}.`}>
      <InviteForm token={token} email={link.email} hasAccount={link.hasAccount} />
    </LinkShell>
  );
}
