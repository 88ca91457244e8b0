/** A line saying what an event was about: "Ada Lovelace (member 42)", "Care plan 77", "Activity 311 → scheduled". */
export function eventSubject(e: { name: string; params: Record<string, unknown>; responseData: unknown }): string {
  const data = (e.responseData && typeof e.responseData === 'object' ? e.responseData : {}) as Record<string, unknown>;
  const area = e.name.replace(/_(create|update|delete|link|reminder|transition_scheduled|transition_expired)$/, '').replace(/_/g, ' ');
  const id = (data.id ?? e.params.id ?? (data.activity as { id?: unknown } | undefined)?.id) as number | undefined;
  const label = (data.name ?? data.title ?? data.display ?? (data.activity as { display?: unknown } | undefined)?.display) as string | undefined;
  if (e.name === 'account_link') return `sign-in of ${String(e.params.sub ?? 'someone')} → ${data.memberId ? `member ${String(data.memberId)}` : data.userId ? `staff ${String(data.userId)}` : 'no one'}`;
  if (e.name.startsWith('activity_transition')) return `${String(label ?? 'activity')} (activity ${String(id)}) → ${String(e.params.status)}`;
  if (e.name === 'activity_reminder') return `reminder of ${String(label ?? 'an activity')} (activity ${String(id)})`;
  return [label, id !== undefined ? `${area} ${id}` : undefined].filter(Boolean).join(' · ') || area;
}
