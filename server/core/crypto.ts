import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { getEnv } from '@/server/env';
import { remembered } from './remembered';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** `scrypt$N$r$p$salt$hash`, all base64url: self-describing so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * Bearer secrets (API keys, member tokens) carry 256 random bits, so a plain SHA-256 is a safe, indexable
 * hash: there is nothing to brute-force.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateToken(prefix: 'cb_key' | 'cb_mem' | 'cb_inv'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

/** A key derived from AUTH_SECRET for one purpose, so secrets for cursors and sessions never coincide. */
export function derivedKey(purpose: string): Buffer {
  const secret = getEnv().authSecret;
  const key = `${purpose}\u0000${secret}`;
  let derived = derivedKeys.get(key);
  if (!derived) {
    derived = createHmac('sha256', secret).update(`carebase:${purpose}`).digest();
    derivedKeys.set(key, derived);
  }
  return derived;
}
/** Derived keys by purpose and secret: an HMAC per signed cookie or decrypted secret added up. */
const derivedKeys = new Map<string, Buffer>();

/** AES-256-GCM for secrets we must be able to read back (webhook signing secrets): `v1.iv.tag.data`. */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey('secret-encryption'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(stored: string): string {
  const key = derivedKey('secret-encryption');
  let decrypted = decryptedBy.get(key);
  if (!decrypted) decryptedBy.set(key, (decrypted = new Map()));
  // Webhook secrets are few and read for every delivery: keep the recent ones (at most 1,000).
  return remembered(decrypted, stored, () => decryptStored(stored, key));
}
/** Secrets already decrypted, per encryption key (a changed AUTH_SECRET finds none of them). */
const decryptedBy = new WeakMap<Buffer, Map<string, string>>();

function decryptStored(stored: string, key: Buffer): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('Unreadable encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
