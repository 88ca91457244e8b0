/**
 * Internal names said for members: `preferred_language` and `preferredLanguage` become "Preferred
 * language", a record type `care-notes` "Care notes"; values read as words, not JSON.
 */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${humanise(k)}: ${showValue(v)}`)
    .join('; ');
}
