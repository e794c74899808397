/**
 * The weighted-by-use section in Chromium: the chart of the 20 most-downloaded servers with their
 * verdict mix, from a real fixture scan (the injection server among them) given download figures,
 * and the trend section beside it. Screenshot: test-artifacts/weighted.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { compareWith } from '../../src/compare/trend.js';
import { htmlReporter } from '../../src/render/html/index.js';
import type { Report, ServerReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';
import { artifact, launch, open } from './browser.js';
import { scanFixtures, XSS_SERVER } from './fixture-report.js';

it('draws the 20 most-downloaded servers, largest first, each bar its verdict mix, with nothing blocked or run', async () => {
  const scanned = await scanFixtures();
  const ok = scanned.servers.filter((s) => s.status === 'ok' && s.tools.length > 0);
  // 25 servers with figures (copies of the scanned ones under new names), the injection server on top.
  const servers: ServerReport[] = Array.from({ length: 25 }, (_, i) => {
    const s = ok[i % ok.length]!;
    const name = i === 0 ? XSS_SERVER : `${s.name}-${i}`;
    return { ...s, name, target: { ...s.target, downloads: (25 - i) * 1_000 + (i === 0 ? 1_000_000 : 0) } };
  });
  const all = [...servers, ...scanned.servers.filter((s) => s.status === 'failed')];
  const report: Report = { ...scanned, servers: all, summary: summarize(all) };
  // The earlier report: the same servers, one without its first tool.
  const earlier: Report = { ...report, servers: all.map((s, i) => (i === 1 ? { ...s, tools: s.tools.slice(1) } : s)) };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-weighted-'));
  const file = path.join(dir, 'report.html');
  writeFileSync(
    file,
    htmlReporter.render({
      ...report,
      comparedWith: compareWith(report, { file: '/x/2026-11-29.json', report: earlier }),
    }),
  );

  const browser = await launch();
  try {
    const o = await open(browser, file, { viewport: { width: 1280, height: 900 } });
    const { page } = o;
    await page.waitForSelector('html[data-ready="1"]');
    const section = page.locator('#weighted-section');
    const rows = await section.locator('.top-downloaded ol.bars > li').evaluateAll((lis) =>
      lis.map((li) => ({
        name: li.querySelector('.bar-label')?.textContent ?? '',
        n: li.querySelector('.bar-n')?.getAttribute('title') ?? '',
        width: li.querySelector('svg')?.getBoundingClientRect().width ?? 0,
        rects: [...li.querySelectorAll('svg rect')].map((r) => Number(r.getAttribute('width'))),
        label: li.querySelector('svg')?.getAttribute('aria-label') ?? '',
      })),
    );
    expect(rows).toHaveLength(20);
    expect(rows[0]!.name).toBe(XSS_SERVER); // shown as text, not markup
    const downloads = rows.map((r) => Number(r.n.replace(/\D/g, '')));
    expect(downloads).toEqual([...downloads].sort((a, b) => b - a));
    expect(downloads[0]).toBe(1_025_000);
    for (const r of rows) {
      expect(r.width).toBeGreaterThan(100); // drawn, and across the row
      expect(r.rects.reduce((a, b) => a + b, 0)).toBe(1000); // a 100% stacked bar
      expect(r.label).toMatch(/monthly downloads, \d+ tools?: /);
    }
    expect(await page.locator('#trend-h').textContent()).toMatch(/^Trend since \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(await page.locator('#trend-section code').first().textContent()).toBe('2026-11-29.json');
    expect(await page.locator('#trend-section').textContent()).toContain('tool added');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(await o.violations()).toEqual([]);
    expect(o.requests).toEqual([]);
    const box = await section.boundingBox();
    // An artifact for a person to look at, not an assertion: a loaded machine may not take it in time.
    if (box)
      await page
        .screenshot({ path: artifact('weighted.png'), fullPage: true, clip: box, timeout: 60_000 })
        .catch(() => undefined);
    await o.close();
  } finally {
    await browser.close();
  }
}, 90_000);
