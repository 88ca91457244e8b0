'use client';

import Link from 'next/link';
import type { AuditEventDto } from '@/server/services/audit/schemas';
import { labelOf } from './error-messages';

/** Where a changed resource lives in the console, when it has a page. */
export function resourceHref(resource: string, id: number): string | null {
  const pages: Record<string, string> = {
    member: '/members',
    careplan: '/careplans',
    'careplan-definition': '/templates',
    questionnaire: '/questionnaires',
    'questionnaire-response': '/responses',
    article: '/articles',
    schedule: '/schedules',
    webhook: '/webhooks',
    integration: '/integrations',
    event: '/events',
  };
  if (resource === 'user' || resource === 'invitation') return '/team';
  return pages[resource] ? `${pages[resource]}/${id}` : null;
}

export const RESOURCE_LABEL: Record<string, string> = {
  member: 'Member',
  'member-token': 'Member access token',
  'record-type': 'Record type',
  record: 'Record',
  integration: 'Integration',
  'api-key': 'API key',
  webhook: 'Webhook',
  'webhook-delivery': 'Webhook delivery',
  'identity-provider': 'Identity provider',
  'observation-code': 'Observation code',
  observation: 'Observation',
  'careplan-definition': 'Template',
  careplan: 'Care plan',
  'careplan-parameter': 'Reference date',
  activity: 'Activity',
  notification: 'Notification',
  article: 'Article',
  questionnaire: 'Questionnaire',
  'questionnaire-response': 'Questionnaire response',
  schedule: 'Schedule',
  appointment: 'Appointment',
  encounter: 'Visit',
  user: 'Team member',
  invitation: 'Invitation',
};

const ACTION_VERB = { create: 'created', update: 'changed', delete: 'deleted' } as const;
const ACTOR_KIND = { user: 'staff', integration: 'integration', member: 'member', system: 'automatic' } as const;

/** "Admin (staff)", "CRM sync (integration)", "Carebase (automatic)". */
export function actorText(e: AuditEventDto): string {
  const name = e.actor.name ?? (e.actor.id ? `#${e.actor.id}` : 'Carebase');
  return `${name} (${ACTOR_KIND[e.actor.type]}${e.actor.keyId ? `, key ${e.actor.keyId}` : ''})`;
}

export function summaryOf(e: AuditEventDto): string {
  const fields = Object.keys(e.changes);
  const what = `${RESOURCE_LABEL[e.resource] ?? e.resource} ${e.resourceId}`;
  if (e.action !== 'update' || fields.length === 0) return `${what} ${ACTION_VERB[e.action]}`;
  return `${what}: ${fields.map((f) => labelOf(f).toLowerCase()).slice(0, 4).join(', ')}${fields.length > 4 ? ` and ${fields.length - 4} more` : ''}`;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}

/** Each changed field with its value before and after; long values wrap inside their cell. */
export function ChangeList({ event }: { event: AuditEventDto }) {
  const entries = Object.entries(event.changes);
  if (entries.length === 0) return <p className="text-sm text-slate-600">No fields changed.</p>;
  return (
    <dl className="grid gap-2 text-sm">
      {entries.map(([field, { before, after }]) => (
        <div key={field} className="grid gap-1 rounded-md bg-slate-50 p-2 ring-1 ring-slate-200 sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium text-slate-800">{labelOf(field)}</dt>
          <dd className="min-w-0 text-slate-700">
            {event.action !== 'create' && (
              <span className="block break-words">
                <span className="text-xs font-medium uppercase text-slate-600">Before </span>
                <span className="font-mono text-xs">{show(before)}</span>
              </span>
            )}
            {event.action !== 'delete' && (
              <span className="block break-words">
                <span className="text-xs font-medium uppercase text-slate-600">{event.action === 'create' ? 'Value ' : 'After '}</span>
                <span className="font-mono text-xs">{show(after)}</span>
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ResourceLink({ resource, id }: { resource: string; id: number }) {
  const href = resourceHref(resource, id);
  const text = `${RESOURCE_LABEL[resource] ?? resource} ${id}`;
  return href ? (
    <Link href={href} className="font-medium text-brand-700 underline-offset-2 hover:underline">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}
