import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeWithProgram } from './skips.js';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
/** Screenshots of the pages under test, kept after the run (CI keeps them as artefacts). */
export const ARTIFACTS_DIR = join(ROOT, 'test', 'artifacts');

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). Browser downloads are not reachable here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `describe` when a browser is installed (see describeWithProgram; .ci/run sets REQUIRE_BROWSER=1). */
export function describeInBrowser(name: string, fn: () => void): void {
  describeWithProgram(CHROMIUM_PATH, process.env.REQUIRE_BROWSER === '1', 'apt-get install chromium, or set CHROMIUM_PATH')(name, fn);
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface ProfileOptions {
  javaScriptEnabled?: boolean;
  viewport?: { width: number; height: number };
  bypassCSP?: boolean;
  /** A browser's own (headless Chromium's says HeadlessChrome, which analytics drops as a bot). */
  userAgent?: string;
}

/** Headless chromium, offline but for 127.0.0.1, in a fresh profile. */
export async function openBrowser(options: ProfileOptions = {}): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // As root in a container, with no network beyond loopback: no sandbox, no background traffic.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const { context, page } = await openProfile(browser, options);
  return { browser, context, page, close: () => browser.close() };
}

/**
 * Another fresh profile in a browser already open: a new context, with cookies, storage and cache of its own, as a
 * second browser's would be (a second visitor, a browser without JavaScript). A context costs ~0.3 s of CPU, a
 * chromium launch ~2 s (measured 2026-11-29). close() closes the context only; the browser stays open.
 */
export async function openProfile(browser: Browser, options: ProfileOptions = {}): Promise<BrowserSession> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    // Only to inject axe-core into pages whose CSP allows no script at all.
    bypassCSP: options.bypassCSP ?? false,
    userAgent: options.userAgent,
  });
  const page = await context.newPage();
  return { browser, context, page, close: () => context.close() };
}

/** Saves a full-page screenshot as test/artifacts/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  try {
    await page.screenshot({ path, fullPage: true });
  } catch (err) {
    // Chromium now and then refuses one capture (a busy compositor, seen under a full run's load) and takes the
    // same picture when asked again; any other error, or a second refusal, fails the test.
    if (!/Unable to capture screenshot/.test((err as Error).message)) throw err;
    await page.screenshot({ path, fullPage: true });
  }
  return path;
}
