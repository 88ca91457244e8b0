import { expect, test } from '@playwright/test';
import { E2E } from '../playwright.config';
import { signIn, snap } from './helpers';

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill(E2E.adminEmail);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Wrong email or password');
  await expect(page.getByLabel('Email')).toHaveValue(E2E.adminEmail);
  await snap(page, 'login-error');
});

test('an admin signs in, sees the dashboard and signs out', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Orthopaedic Care');
  await expect(page.getByRole('list', { name: 'Project totals' })).toContainText('Members');
  await expect(page.getByRole('link', { name: 'Integrations & keys' })).toBeVisible();
  await snap(page, 'dashboard');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/members');
  await expect(page).toHaveURL(/\/login/);
});

test('a coordinator cannot reach admin pages', async ({ page }) => {
  await signIn(page, E2E.coordinatorEmail, E2E.coordinatorPassword);
  await expect(page.getByRole('link', { name: 'Integrations & keys' })).toHaveCount(0);
  await expect(page.getByText(/^Coordinator · times in/)).toBeVisible();
  await page.goto('/integrations');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Admins only');
  await expect(page.getByRole('button', { name: 'New integration' })).toHaveCount(0);
  await snap(page, 'coordinator-forbidden');
  await page.goto('/members');
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New member' })).toHaveCount(0);
  const res = await page.request.post('/api/trpc/integrations.create', {
    data: { json: { display: 'Sneaky', slug: 'sneaky' } },
  });
  expect(res.status()).toBe(403);
});
