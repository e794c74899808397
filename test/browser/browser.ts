/** Debian's chromium driven by playwright-core, and a page opened with everything it reports recorded. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Opened {
  page: Page;
  /** Messages of alert/confirm/prompt dialogs (each dismissed). */
  dialogs: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** securitypolicyviolation events: `directive blockedURI`. */
  violations(): Promise<string[]>;
  /** Requests the page made other than to its own file (there must be none). */
  requests: string[];
  close(): Promise<void>;
}

/** Opens `file` from disk in a fresh context and records dialogs, errors, CSP violations and requests. */
export async function open(browser: Browser, file: string, options: BrowserContextOptions = {}): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(file).href;
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  if (options.javaScriptEnabled !== false) {
    // Registered through the DevTools protocol, so the page's CSP does not apply to it.
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
  }
  await page.goto(url, { waitUntil: 'load' });
  return {
    page,
    dialogs,
    errors,
    requests,
    violations: () => page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []),
    close: () => context.close(),
  };
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return `${ARTIFACTS}${name}`;
}
