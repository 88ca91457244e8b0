import { expect, type Locator, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';

export async function signIn(page: Page, email = E2E.adminEmail, password = E2E.adminPassword) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Saves a screenshot for people to look at; tests never compare pixels. CI takes none (nobody looks). */
export async function snap(page: Page, name: string) {
  if (process.env.CI) return;
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Follows a link in the main navigation. */
export async function navigate(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
}

/** Picks an option in a searchable picker (combobox): types to search, then chooses the option by name. */
export async function pick(scope: Page | Locator, label: string, search: string, option: string | RegExp = search) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(search);
  await scope.getByRole('listbox', { name: label }).getByRole('option', { name: option }).click();
  await expect(scope.getByRole('listbox', { name: label })).toHaveCount(0);
}
