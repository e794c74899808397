/**
 * The run index's pages in Chromium: index.html (trend chart, "different list", server links) and a
 * server's page across runs, made by the index writer from a real fixture scan (the injection
 * server's name among them) as three runs over two lists. Nothing is blocked, run or fetched, the
 * chart is drawn, and the injection server's link opens its page with its name as text.
 * Screenshot: test-artifacts/run-index.png.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { writeIndex } from '../../src/census/publish/run-index-files.js';
import { rebuildIndex } from '../../src/census/publish/run-index.js';
import type { Report } from '../../src/model/schema.js';
import { artifact, launch, open } from './browser.js';
import { scanFixtures, XSS_SERVER } from './fixture-report.js';

it('draws the trend, flags the run over another list and links each server page, with nothing blocked or run', async () => {
  const scanned = await scanFixtures();
  const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-run-index-'));
  const runs: [string, Report][] = [
    ['2026-12-07', scanned],
    ['2026-12-14', scanned],
    // The third run covers a different list: the same servers, from another file.
    [
      '2026-12-21',
      {
        ...scanned,
        servers: scanned.servers.map((s) => ({ ...s, target: { ...s.target, source: 'other.json#servers[0]' } })),
      },
    ],
  ];
  for (const [day, report] of runs) {
    mkdirSync(path.join(root, day));
    const at = { startedAt: `${day}T04:00:00.000Z`, finishedAt: `${day}T04:10:00.000Z` };
    writeFileSync(path.join(root, day, 'report.json'), JSON.stringify({ ...report, ...at }));
  }
  const rebuilt = await rebuildIndex(root, (file, why) => {
    throw new Error(`${file}: ${why}`);
  });
  await writeIndex(root, rebuilt.index, rebuilt.history, () => undefined);

  const browser = await launch();
  try {
    const o = await open(browser, path.join(root, 'index.html'), { viewport: { width: 1280, height: 900 } });
    const { page } = o;
    const svg = page.locator('figure.trend > svg');
    expect((await svg.boundingBox())!.width).toBeGreaterThan(600);
    expect(await svg.locator('polyline').count()).toBeGreaterThanOrEqual(3);
    expect(await svg.locator('.list-mark text').allTextContents()).toEqual(['different list']);
    expect(await page.locator('tbody .diff').allTextContents()).toEqual(['different list']);
    const link = page.getByRole('link', { name: XSS_SERVER, exact: true });
    expect(await link.count()).toBe(1);
    const box = await page.locator('figure.trend').boundingBox();
    if (box)
      await page.screenshot({ path: artifact('run-index.png'), clip: box, timeout: 60_000 }).catch(() => undefined);
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(await o.violations()).toEqual([]);
    expect(o.requests).toEqual([]);

    // The server's page, through its link: its name as text, a row per run, nothing run.
    await link.click();
    await page.waitForLoadState('load');
    expect(page.url()).toMatch(/\/servers\/xss-b-onmouseover-window-__pwned-9-server-b-[0-9a-f]{8}\.html$/);
    expect(await page.locator('h1').textContent()).toBe(`${XSS_SERVER}: every run`);
    expect(await page.locator('tbody tr').count()).toBe(3);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    await o.close();
  } finally {
    await browser.close();
  }
}, 120_000);
