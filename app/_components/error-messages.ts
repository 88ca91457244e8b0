/**
 * A failed call said in words for people (usable in server actions and client components alike). Our own
 * messages for conflicts and invalid input are written for people; the rest get a sentence by code.
 */
const BY_CODE: Record<string, string> = {
  UNAUTHORIZED: 'Your session has ended. Sign in again.',
  FORBIDDEN: 'You do not have permission to do this.',
  NOT_FOUND: 'This item no longer exists.',
  PAYLOAD_TOO_LARGE: 'That is too much to send at once.',
  TOO_MANY_REQUESTS: 'Too many attempts. Wait a moment and try again.',
  BAD_GATEWAY: 'A connected system did not answer. Try again later.',
  SERVICE_UNAVAILABLE: 'The service is busy right now. Try again in a moment.',
  TIMEOUT: 'The service is busy right now. Try again in a moment.',
  INTERNAL_SERVER_ERROR: 'Something went wrong on our side. Try again.',
};

export function messageForPeople(error: unknown): string {
  const e = error as { code?: string; message?: string; data?: { code?: string; fieldErrors?: { path: string; message: string }[] | null } | null } | null;
  const code = e?.data?.code ?? e?.code;
  if (code && BY_CODE[code]) return BY_CODE[code]!;
  // A validation failure says what is wrong where, rather than "The request is invalid".
  const first = e?.data?.fieldErrors?.[0];
  if (code === 'BAD_REQUEST' && first) return `${labelOf(first.path)}: ${first.message}`;
  if (e?.message && (code === 'CONFLICT' || code === 'BAD_REQUEST')) return e.message;
  return BY_CODE.INTERNAL_SERVER_ERROR!;
}

/** `triggers.0.event` as "Triggers 1 event", `observation.value` as "Observation value". */
export function labelOf(path: string): string {
  const words = path
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
