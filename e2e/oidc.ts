import http from 'node:http';
import type net from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import Provider from 'oidc-provider';
import { E2E } from '../playwright.config';

/**
 * Listens on a port of the kernel's choosing on 127.0.0.1 and answers it. Asking for a free port, closing
 * it and listening on it later left a window in which another process (or an outgoing connection) could
 * take it; a failed listen also rejects here instead of leaving an unhandled 'error' event.
 */
function listenOnLoopback(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/**
 * A real OpenID Connect provider on 127.0.0.1 (oidc-provider), registered as the project's identity
 * provider named `display`; `accounts` are the people it knows, by login. Close it when done.
 */
export async function startIdentityProvider(request: APIRequestContext, display: string, accounts: Record<string, Record<string, unknown>>) {
  // The issuer's URL names the port, so the server listens before the provider exists; until then it answers 503.
  let handle: http.RequestListener = (_req, res) => void res.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  const port = await listenOnLoopback(server);
  const issuer = `http://127.0.0.1:${port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  const res = await request.post('/api/v1/identity-provider', {
    data: { display, issuer, clientId: 'carebase-e2e', clientSecret: 'e2e-client-secret' },
    headers: { authorization: `Bearer ${E2E.apiKey}` },
  });
  if (res.status() !== 201) {
    await close();
    throw new Error(`identity provider: ${res.status()} ${await res.text()}`);
  }
  const idp = (await res.json()) as { id: number };
  const oidc = new Provider(issuer, {
    clients: [
      {
        client_id: 'carebase-e2e',
        client_secret: 'e2e-client-secret',
        redirect_uris: [`${E2E.baseURL}/api/auth/callback/idp-${idp.id}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...(accounts[sub] ?? {}) }) }),
  });
  handle = oidc.callback();
  return { id: idp.id, close };
}

/** Signs in on /login with the provider's button and oidc-provider's development login and consent screens. */
export async function signInWithProvider(page: Page, display: string, login: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: display }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  if (await consent.isVisible().catch(() => false)) await consent.click();
}
