import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.js';
import { ADMIN_TOKEN, type TestApp } from './test-app.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Clicks a link or button of a portal page and waits until htmx has swapped in the answer: with
 * JavaScript on, actions replace the page's body instead of reloading it (the window survives).
 */
export async function act(page: Page, target: Locator): Promise<void> {
  // Runs in the page: globalThis is its window.
  await page.evaluate(() => {
    const w = globalThis as unknown as { settled?: Promise<void>; document: { addEventListener(type: string, fn: () => void, options: object): void } };
    w.settled = new Promise((resolve) => w.document.addEventListener('htmx:afterSettle', () => resolve(), { once: true }));
  });
  await target.click();
  await page.evaluate(() => (globalThis as unknown as { settled: Promise<void> }).settled);
}

/** axe-core's critical violations on the page (rule ids). Needs a page opened with `bypassCSP`. */
export async function criticalViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page, ['critical'])).map((v) => v.id);
}

/** axe-core's violations of the impacts given, with the first few offending elements. Needs a page opened with `bypassCSP`. */
export async function axeViolations(
  page: Page,
  impacts: string[] = ['critical', 'serious'],
): Promise<Array<{ id: string; impact: string; targets: string[] }>> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    type Found = { id: string; impact: string; nodes: Array<{ target: string[] }> };
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => impacts.includes(v.impact));
}

/** axe-core's critical and serious violations on the page (rule ids, with what they hit). Needs a page opened with `bypassCSP`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown[] }> }> }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** How wide the page's content is at the viewport's width (more than the viewport: the page scrolls sideways). */
export function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
}

/**
 * Opens each page (`[path, screenshot name]`) at a phone's 390 px width and checks that it needs no sideways
 * scrolling and has no serious accessibility violation; saves a screenshot of each. The viewport is put back after.
 */
export async function expectFitsPhoneWidth(page: Page, baseUrl: string, pages: Array<[path: string, name: string]>): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const [path, name] of pages) {
      await page.goto(`${baseUrl}${path}`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, name);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}

/** A new account that accepts its portal invite in the browser (setting `password`), so `page` is signed in; answers its id and API key. */
export async function signUpInBrowser(app: TestApp, page: Page, email: string, password: string): Promise<{ accountId: string; apiKey: string }> {
  const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201);
  const { accountId, apiKey, portalInviteUrl } = created.body as { accountId: string; apiKey: string; portalInviteUrl: string };
  // The invite is built on PUBLIC_URL: the same page on this server.
  await page.goto(portalInviteUrl.replace(/^https?:\/\/[^/]+/, app.url));
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('The same again').fill(password);
  await act(page, page.getByRole('button', { name: 'Set password and sign in' }));
  return { accountId, apiKey };
}
