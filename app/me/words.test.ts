import { describe, expect, it } from 'vitest';
import { humanise, showValue } from './words';

describe('words for members', () => {
  it('turns field names and record types into words', () => {
    expect(humanise('preferredLanguage')).toBe('Preferred language');
    expect(humanise('care-notes')).toBe('Care notes');
    expect(humanise('contact_by_sms')).toBe('Contact by sms');
  });
  it('shows values as words', () => {
    expect(showValue(true)).toBe('Yes');
    expect(showValue({ sms: false, email: true })).toBe('Sms: No; Email: Yes');
    expect(showValue(['a', 'b'])).toBe('a, b');
    expect(showValue(null)).toBe('—');
  });
});
