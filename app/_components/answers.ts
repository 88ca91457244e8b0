import type { Answer, Item } from '@/server/services/questionnaires/rules';

/** An answer as words: option labels for choices, Yes/No for booleans, the value otherwise. */
export function answerDisplay(item: Item | undefined, value: unknown): string {
  if (item?.type === 'boolean' && typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (item?.type === 'choice') {
    const label = (v: unknown) => item.options?.find((o) => o.value === v)?.display ?? String(v);
    return Array.isArray(value) ? value.map(label).join(', ') : label(value);
  }
  if (Array.isArray(value)) return value.join(', ');
  return value === null || value === undefined ? '' : String(value);
}

/** One CSV cell (RFC 4180), with a leading quote on text a spreadsheet would run as a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Responses as CSV: one row per response, one column per item (the latest version's items, then any
 * linkId only older versions had). Repeating choices list their values separated by "; ".
 */
export function responsesCsv(
  items: Item[],
  responses: { id: number; subjectId: number; status: string; questionnaireVersion: number; authoredAt: string; answers: Answer[] }[],
  memberName: (id: number) => string,
): string {
  const columns = items.filter((i) => i.type !== 'display').map((i) => i.linkId);
  for (const r of responses) for (const a of r.answers) if (!columns.includes(a.linkId)) columns.push(a.linkId);
  const head = ['response_id', 'member_id', 'member', 'status', 'version', 'authored_at', ...columns];
  const rows = responses.map((r) => {
    const byLink = new Map(r.answers.map((a) => [a.linkId, a.value]));
    const cells = columns.map((c) => {
      const v = byLink.get(c);
      return v === undefined ? '' : Array.isArray(v) ? v.join('; ') : String(v);
    });
    return [String(r.id), String(r.subjectId), memberName(r.subjectId), r.status, String(r.questionnaireVersion), r.authoredAt, ...cells];
  });
  return [head, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
