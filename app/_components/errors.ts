'use client';

type WithFieldErrors = { message: string; data?: { fieldErrors?: { path: string; message: string }[] | null } | null } | null;

/** Field errors of a failed mutation keyed by path (`email`, `permissions.user.read`), for inline display. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const list = (error as WithFieldErrors)?.data?.fieldErrors ?? [];
  const out: Record<string, string> = {};
  for (const e of list) out[e.path] ??= e.message;
  return out;
}

/** The message to show above a form: field errors are shown at their fields, so only the rest here. */
export function formErrorOf(error: unknown): { message: string } | null {
  if (!error) return null;
  const fields = fieldErrorsOf(error);
  return Object.keys(fields).length > 0 ? { message: 'Please correct the highlighted fields.' } : { message: (error as Error).message };
}

/** Parses a JSON object typed by a person; returns an error message instead of throwing. */
export function parseJsonObject(text: string): { value?: Record<string, unknown>; error?: string } {
  if (text.trim() === '') return { value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'Must be a JSON object, like {"key": "value"}' };
    return { value: value as Record<string, unknown> };
  } catch (e) {
    return { error: jsonProblem(text, e as Error) };
  }
}

/**
 * Where JSON typed by a person goes wrong, in words: the line and what is likely missing, instead of
 * the parser's own message ("Unexpected token } in JSON at position 14").
 */
export function jsonProblem(text: string, error: Error): string {
  const at = /position (\d+)/.exec(error.message)?.[1] ?? /column (\d+)/.exec(error.message)?.[1];
  const position = at !== undefined ? Number(at) : text.length;
  const line = text.slice(0, position).split('\n').length;
  const where = text.includes('\n') ? ` on line ${line}` : '';
  if (/Unexpected end/i.test(error.message) || position >= text.trimEnd().length) return `This is not complete JSON${where}: a closing } or " may be missing.`;
  if (text.charAt(position) === "'") return `Use double quotes (") in JSON${where}, not single ones.`;
  return `This is not valid JSON${where}. Check for a missing comma, quote or brace, e.g. {"key": "value"}.`;
}
