import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signatureHeader } from './signing';

const body = JSON.stringify({ event: 'member_create', data: { id: 1, name: 'Ada' } });

function verifies(secret: string, signature: string, id = '42', timestamp = Math.floor(Date.now() / 1000)): boolean {
  try {
    new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
    return true;
  } catch {
    return false;
  }
}

describe('signatureHeader', () => {
  it('signs so that the standardwebhooks package verifies it, with each secret during a rotation', () => {
    const [older, newer] = [generateWebhookSecret(), generateWebhookSecret()];
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([newer, older], '42', now, body);
    expect(header.split(' ')).toHaveLength(2);
    expect(verifies(newer, header, '42', now)).toBe(true);
    expect(verifies(older, header, '42', now)).toBe(true);
    expect(verifies(generateWebhookSecret(), header, '42', now)).toBe(false);
    // The id and timestamp are signed too.
    expect(verifies(newer, header, '43', now)).toBe(false);
  });

  it('signs each secret with its own key, however many secrets were used before (the key cache)', () => {
    const now = Math.floor(Date.now() / 1000);
    const first = generateWebhookSecret();
    expect(verifies(first, signatureHeader([first], '42', now, body), '42', now)).toBe(true);
    // More secrets than the cache keeps: the first one's key is dropped and decoded again.
    for (let i = 0; i < 1100; i++) signatureHeader([generateWebhookSecret()], '1', now, body);
    const again = signatureHeader([first], '42', now, body);
    expect(verifies(first, again, '42', now)).toBe(true);
    const other = generateWebhookSecret();
    expect(verifies(other, signatureHeader([other], '42', now, body), '42', now)).toBe(true);
    expect(signatureHeader([other], '42', now, body)).not.toBe(again);
  });
});
