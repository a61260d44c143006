/** What the browser specs share: signing in through the page, to the chat or its organization settings. */
import type { Page } from 'playwright-core';
import type { Account } from './server.js';

/** The page asks the server whether it is signed in; a signed-out answer is a 401 Chromium logs. */
export const isSessionProbe = (e: string) => e.includes('status of 401') && e.includes('/json/session');

/** Signs in at `/` with the form, as a person does, and waits for the chat's sidebar. */
export async function signIn(page: Page, url: string, who: Account): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
}

/** Signs in at `/admin/` with the form and waits for the admin sections. */
export async function signInToAdmin(page: Page, url: string, who: Account): Promise<void> {
  await page.goto(`${url}/admin/`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
}
