import { z } from 'zod';

/**
 * Zod's default messages said for people ("Too small: expected number to be >0" becomes "Must be more
 * than 0"), once for the server and the browser. Messages a schema states itself still win.
 */
const TYPE_NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  bigint: 'a whole number',
};

const FORMATS: Record<string, string> = {
  email: 'Enter an email address, like name@example.org',
  url: 'Enter a web address, like https://example.org',
  datetime: 'Enter a date and time, like 2026-01-31T09:30:00Z',
  date: 'Enter a date, like 2026-01-31',
  uuid: 'Must be a UUID',
};

const list = (values: readonly unknown[]) => {
  const shown = values.slice(0, 6).map(String).join(', ');
  return values.length > 6 ? `${shown}, …` : shown;
};

type Issue = { code?: string; input?: unknown; expected?: string; origin?: string; minimum?: unknown; maximum?: unknown; inclusive?: boolean; format?: string; values?: readonly unknown[]; divisor?: unknown };

export function messageFor(issue: Issue): string | undefined {
  switch (issue.code ?? '') {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      return `Must be ${TYPE_NOUNS[issue.expected ?? ''] ?? issue.expected}`;
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? 'Required' : `Use at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return n <= 1 ? 'Add at least one' : `Add at least ${n}`;
      return issue.inclusive === false ? `Must be more than ${n}` : `Must be at least ${n}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `Use at most ${n.toLocaleString('en')} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `At most ${n.toLocaleString('en')}`;
      return issue.inclusive === false ? `Must be less than ${n}` : `Must be at most ${n.toLocaleString('en')}`;
    }
    case 'invalid_format':
      return FORMATS[issue.format ?? ''] ?? 'This is not in the expected form';
    case 'invalid_value':
      return issue.values && issue.values.length > 0 ? `Choose one of: ${list(issue.values)}` : 'This value is not allowed';
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'This value is not in a form this field takes';
    case 'unrecognized_keys':
      return 'Unknown field';
    default:
      return undefined;
  }
}

z.config({ customError: (issue) => messageFor(issue as Issue) });
