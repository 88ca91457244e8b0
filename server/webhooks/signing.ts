import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { remembered } from '@/server/core/remembered';

/** A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Signing keys by secret, decoded once: every delivery is signed with its webhook's secrets, and decoding
 * the base64 each time was a third of the signature's cost. Webhook secrets are few; the most recent
 * 1,000 are kept (secrets are already held in memory, decrypted, for the same reason).
 */
const keys = new Map<string, KeyObject>();
const signingKey = (secret: string): KeyObject =>
  remembered(keys, secret, () => createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')));

/**
 * `webhook-signature` per Standard Webhooks: `v1,<base64 HMAC-SHA256(id.timestamp.body)>` for each active
 * secret, space-separated (two during a rotation's overlap).
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  const signed = `${id}.${timestamp}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signed).digest('base64')}`).join(' ');
}
