import { expect, test } from '@playwright/test';
import { signIn, snap } from './helpers';

test('on a phone the console navigation is a drawer, and no page scrolls sideways', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer).toBeVisible();
  await snap(page, 'drawer-phone');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  for (const [name, path] of [
    ['Members', '/members'],
    ['Schedules', '/schedules'],
    ['Questionnaires', '/questionnaires'],
    ['Templates', '/templates'],
  ] as const) {
    await menu.click();
    await drawer.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  }
  // From 1,024 px up the sidebar is back and the Menu button is gone.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(menu).toBeHidden();
});
