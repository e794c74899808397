/**
 * The HTML report in a real browser (Debian's chromium through playwright-core), rendered by the built
 * CLI (`idemscan report`) from a real scan of fixture servers, one of which (xss.mjs) sends HTML/JS
 * payloads in every string. Screenshots go to test-artifacts/.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visible } from '../../src/render/html/escape.js';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { artifact, launch, open, type Opened } from './browser.js';
import { scanFixtures, XSS_SERVER } from './fixture-report.js';

let browser: Browser;
let report: Report;
let htmlFile: string;
let jsonFile: string;

const pwned = (o: Opened) => o.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
const index = (name: string) => report.servers.findIndex((s) => s.name === name);

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-html-'));
  jsonFile = path.join(dir, 'report.json');
  writeFileSync(jsonFile, JSON.stringify(await scanFixtures(), null, 2));
  report = Report.parse(JSON.parse(readFileSync(jsonFile, 'utf8')));
  const r = await idemscan(['report', jsonFile, '--format', 'html']);
  expect(r.stderr).toContain('report.html');
  expect(r.exitCode).toBe(0);
  htmlFile = path.join(dir, 'report.html');
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the fixture scan behind the page', () => {
  it('has the injection server, failures of three kinds of cause and every verdict', () => {
    const xss = report.servers[index(XSS_SERVER)]!;
    expect(xss.status).toBe('ok');
    expect(xss.tools.map((t) => t.name)).toContain('<script>window.__pwned=1</script>');
    expect(
      report.servers
        .filter((s) => s.status === 'failed')
        .map((s) => s.failure?.kind)
        .sort(),
    ).toEqual(['exited', 'exited', 'timeout']);
    for (const v of ['read-only', 'protocol-keyed', 'keyed', 'idempotent', 'unprotected']) {
      expect(report.servers.some((s) => s.tools.some((t) => t.verdict === v))).toBe(true);
    }
  });
});

describe('safety', () => {
  it('runs no payload, makes no request and blocks nothing of its own', async () => {
    const o = await open(browser, htmlFile, { viewport: { width: 1280, height: 900 } });
    try {
      const { page } = o;
      await page.waitForSelector('html[data-ready="1"]');
      // Interact with everything that shows or moves untrusted text.
      await page.getByRole('button', { name: 'Collapse all' }).click();
      await page.getByRole('button', { name: 'Expand all' }).click();
      for (const name of ['Server', 'Tools', 'Failure'])
        await page.locator('#servers thead').getByRole('button', { name }).click();
      for (const select of await page.locator('select.verdict-filter').all()) {
        for (const value of await select
          .locator('option')
          .evaluateAll((os) => os.map((x) => (x as HTMLOptionElement).value)))
          await select.selectOption(value);
      }
      await page.locator('#server-filter').pressSequentially('<script>');
      await page.mouse.move(300, 300);
      expect(o.dialogs).toEqual([]);
      expect(await pwned(o)).toBeUndefined();
      expect(o.errors).toEqual([]);
      expect(await o.violations()).toEqual([]);
      expect(o.requests).toEqual([]);
      // The DOM holds only what the renderer wrote: two scripts (data and code), no element built from a payload.
      const dom = await page.evaluate(() => ({
        scripts: [...document.scripts].map((s) => s.type || 'classic'),
        injected: document.querySelectorAll('img, iframe, object, embed, svg[onload], b, style:not(head > style)')
          .length,
        handlers: [...document.querySelectorAll('*')]
          .flatMap((el) => [...el.attributes].map((a) => a.name))
          .filter((n) => n.startsWith('on') || n === 'style'),
        csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      }));
      expect(dom.scripts).toEqual(['application/json', 'classic']);
      expect(dom.injected).toBe(0);
      expect(dom.handlers).toEqual([]);
      expect(dom.csp).toMatch(
        /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src data:/,
      );
      expect(dom.csp).not.toContain('unsafe');
    } finally {
      await o.close();
    }
  });

  it('enforces its Content-Security-Policy: an inline script added later does not run', async () => {
    const o = await open(browser, htmlFile);
    try {
      await o.page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = "inline"';
        document.body.append(s);
        const d = document.createElement('div');
        d.setAttribute('style', 'display:none');
        d.id = 'styled';
        document.body.append(d);
      });
      expect(await pwned(o)).toBeUndefined();
      expect(await o.page.locator('#styled').evaluate((el) => getComputedStyle(el).display)).not.toBe('none');
      expect((await o.violations()).join('\n')).toMatch(/script-src/);
    } finally {
      await o.close();
    }
  });

  it('shows every untrusted text literally, control characters made visible', async () => {
    const o = await open(browser, htmlFile);
    try {
      const i = index(XSS_SERVER);
      const xss = report.servers[i]!;
      const rows = await o.page.locator(`#t-${i} tbody tr`).evaluateAll((trs) =>
        trs.map((tr) => ({
          name: tr.querySelector('.tool-name')?.textContent,
          description: tr.querySelector('.desc')?.textContent ?? null,
          title: tr.querySelector('td')?.textContent,
        })),
      );
      expect(rows).toEqual(
        xss.tools.map((t) => ({
          name: visible(t.name),
          description: t.description === undefined ? null : visible(t.description),
          title: t.title === undefined ? '–' : visible(t.title),
        })),
      );
      const serverRow = o.page.locator('#servers tbody tr').nth(i);
      expect(await serverRow.locator('th a').textContent()).toBe(XSS_SERVER);
      expect(await serverRow.locator('th .sub').textContent()).toBe(
        `${xss.serverInfo?.name} ${xss.serverInfo?.version}`,
      );
      // The payload property name in a key argument's path, and annotation keys and values as received.
      const cells = await o.page.locator(`#t-${i}`).textContent();
      expect(cells).toContain(xss.tools[0]!.keyArguments[0]!.path);
      expect(cells).toContain(
        '<img src=x onerror="window.__pwned=2;alert(2)">: "</script><script>window.__pwned=3;alert(3)</script><!--"',
      );
      // stderr of the failed injection server, and the ANSI/CR tool name of huge-description.
      const crash = report.servers[index('xss-crash')]!;
      expect(await o.page.locator('#failures pre.stderr').allTextContents()).toContain(crash.failure!.stderr);
      const huge = report.servers[index('huge-description')]!;
      expect(await o.page.locator(`#t-${index('huge-description')} .tool-name`).allTextContents()).toEqual(
        huge.tools.map((t) => visible(t.name)),
      );
      expect(await o.page.locator(`#t-${index('huge-description')}`).textContent()).toContain(
        'evil\\u001b[31mred\\u000dname',
      );
      expect(await o.page.title()).not.toContain('<');
    } finally {
      await o.close();
    }
  });

  it('carries the report JSON intact: saved from the page it equals the file', async () => {
    const o = await open(browser, htmlFile);
    try {
      const [download] = await Promise.all([
        o.page.waitForEvent('download'),
        o.page.getByRole('button', { name: 'Save the report as JSON' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('report.json');
      const saved = JSON.parse(readFileSync(await download.path(), 'utf8'));
      expect(saved).toEqual(JSON.parse(readFileSync(jsonFile, 'utf8')));
      expect(o.errors).toEqual([]);
    } finally {
      await o.close();
    }
  });
});

describe('content and interaction', () => {
  it('headline, tables and charts match the JSON', async () => {
    const o = await open(browser, htmlFile);
    try {
      const { page } = o;
      const s = report.summary;
      const headline = (await page.locator('#headline-h').textContent())!.replace(/\s+/g, ' ');
      expect(headline).toContain(`${s.protocolKeyed + s.keyed} of ${s.notReadOnly} tools that are not read-only`);
      expect(headline).toContain(`across ${s.servers} servers (${s.serversFailed} failed to scan)`);
      expect(await page.locator('.headline p').textContent()).toContain(
        `${s.idempotent} more are only hint-idempotent`,
      );
      expect(await page.locator('#servers tbody tr').count()).toBe(report.servers.length);
      expect(await page.locator('#failures li').count()).toBe(s.serversFailed);
      expect(await page.locator('.per-server svg[role="img"]').count()).toBe(
        report.servers.filter((x) => x.tools.length > 0).length,
      );
      expect(await page.locator('.overall svg[role="img"]').getAttribute('aria-label')).toContain(
        `${s.unprotected} unprotected`,
      );
      for (const [i, server] of report.servers.entries()) {
        const verdicts = await page
          .locator(`#t-${i} tbody tr`)
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
        expect(verdicts).toEqual(server.tools.map((t) => t.verdict));
        const row = page.locator('#servers tbody tr').nth(i);
        if (server.status === 'ok')
          expect(await row.locator('td').nth(3).textContent()).toBe(String(server.tools.length));
        else expect(await row.locator('td.failure').textContent()).toContain(server.failure!.kind);
      }
    } finally {
      await o.close();
    }
  });

  it('sorts by clicking a header, both ways, with aria-sort', async () => {
    const o = await open(browser, htmlFile);
    try {
      const { page } = o;
      const header = page.locator('#servers thead th').filter({ hasText: 'Unprotected' });
      const values = () =>
        page
          .locator('#servers tbody tr td:nth-of-type(8)')
          .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-v'))));
      // A number column sorts largest first on the first click.
      await header.getByRole('button').click();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      const down = await values();
      expect(down).toEqual([...down].sort((a, b) => b - a));
      await header.getByRole('button').click();
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      const up = await values();
      expect(up).toEqual([...down].sort((a, b) => a - b));
      expect(down[0]).toBe(
        Math.max(...report.servers.map((x) => x.tools.filter((t) => t.verdict === 'unprotected').length)),
      );
      // Only one column carries aria-sort; a text column sorts too.
      await page.locator('#servers thead').getByRole('button', { name: 'Status' }).click();
      expect(await page.locator('#servers thead th[aria-sort]').count()).toBe(1);
      const statuses = await page.locator('#servers tbody .status').allTextContents();
      expect(statuses).toEqual([...statuses].sort());
      // Tool tables sort by verdict in precedence order, least safe first on the first click.
      const i = index('payments-modern');
      await page.locator(`#t-${i} thead`).getByRole('button', { name: 'Verdict' }).click();
      expect(await page.locator(`#t-${i} tbody tr`).first().getAttribute('data-verdict')).toBe('unprotected');
      await page.locator(`#t-${i} thead`).getByRole('button', { name: 'Verdict' }).click();
      expect(await page.locator(`#t-${i} tbody tr`).first().getAttribute('data-verdict')).toBe('read-only');
    } finally {
      await o.close();
    }
  });

  it('filters servers by typed text and tools by verdict', async () => {
    const o = await open(browser, htmlFile);
    try {
      const { page } = o;
      const filter = page.locator('#server-filter');
      await filter.pressSequentially('crash');
      const shown = () => page.locator('#servers tbody tr:not([hidden]) th a').allTextContents();
      expect(await shown()).toEqual(['xss-crash', 'crash']);
      expect(await page.locator('#server-count').textContent()).toBe(`2 of ${report.servers.length} servers`);
      expect(await page.locator(`#s-${index('payments-modern')}`).isHidden()).toBe(true);
      expect(await page.locator(`#s-${index('crash')}`).isVisible()).toBe(true);
      await filter.fill('');
      await filter.pressSequentially('EXITED');
      expect(await shown()).toEqual(['xss-crash', 'crash']);
      await filter.fill('');
      expect(await page.locator('#servers tbody tr:not([hidden])').count()).toBe(report.servers.length);

      const i = index('payments-legacy');
      const tools = report.servers[i]!.tools;
      await page.locator(`#vf-${i}`).selectOption('unprotected');
      const visibleVerdicts = await page
        .locator(`#t-${i} tbody tr:not([hidden])`)
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
      expect(visibleVerdicts).toEqual(tools.filter((t) => t.verdict === 'unprotected').map((t) => t.verdict));
      expect(await page.locator(`#tc-${i}`).textContent()).toBe(`${visibleVerdicts.length} of ${tools.length} tools`);
      await page.locator(`#vf-${i}`).selectOption('');
      expect(await page.locator(`#t-${i} tbody tr:not([hidden])`).count()).toBe(tools.length);
    } finally {
      await o.close();
    }
  });

  it('collapses and expands server sections, and a server link opens its section', async () => {
    const o = await open(browser, htmlFile);
    try {
      const { page } = o;
      await page.getByRole('button', { name: 'Collapse all' }).click();
      expect(await page.locator('details.server[open]').count()).toBe(0);
      const i = index('charges');
      await page.locator('#servers tbody tr').nth(i).locator('th a').click();
      expect(await page.locator(`#s-${i}`).getAttribute('open')).toBe('');
      await expect(page.locator(`#t-${i}`).isVisible()).resolves.toBe(true);
    } finally {
      await o.close();
    }
  });

  it('is complete without JavaScript: tables, rows and failures are there, controls are not', async () => {
    const o = await open(browser, htmlFile, { javaScriptEnabled: false });
    try {
      const { page } = o;
      expect(await page.locator('#servers tbody tr').count()).toBe(report.servers.length);
      expect(await page.locator('table.tools tbody tr').count()).toBe(report.summary.tools);
      expect(await page.locator('#failures pre.stderr').count()).toBeGreaterThan(0);
      expect(await page.locator('.js-only').evaluateAll((els) => els.every((el) => (el as HTMLElement).hidden))).toBe(
        true,
      );
      expect(await page.locator('table.tools').first().isVisible()).toBe(true);
    } finally {
      await o.close();
    }
  });
});

describe('screenshots (test-artifacts/)', () => {
  const shots = [
    { name: 'html-light.png', options: { viewport: { width: 1280, height: 900 }, colorScheme: 'light' as const } },
    { name: 'html-dark.png', options: { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' as const } },
    {
      name: 'html-phone.png',
      options: { viewport: { width: 390, height: 844 }, colorScheme: 'light' as const, isMobile: true, hasTouch: true },
    },
  ];
  for (const shot of shots) {
    it(shot.name, async () => {
      const o = await open(browser, htmlFile, shot.options);
      try {
        await o.page.screenshot({ path: artifact(shot.name), fullPage: true });
        // Nothing wider than the viewport but the tables' own scrolling boxes.
        const overflow = await o.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(o.errors).toEqual([]);
      } finally {
        await o.close();
      }
    });
  }

  it('html-print.png and html-print.pdf: print media shows every section, no controls', async () => {
    const o = await open(browser, htmlFile, { viewport: { width: 1000, height: 900 } });
    try {
      const { page } = o;
      await page.getByRole('button', { name: 'Collapse all' }).click();
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('#server-filter').isVisible()).toBe(false);
      // Closed sections print open (CSS ::details-content; the script also opens them on beforeprint).
      expect(await page.locator(`#t-${index('payments-modern')}`).isVisible()).toBe(true);
      await page.screenshot({ path: artifact('html-print.png'), fullPage: true });
      await page.pdf({ path: artifact('html-print.pdf'), format: 'A4', printBackground: true });
    } finally {
      await o.close();
    }
  });
});
