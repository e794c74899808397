/**
 * The HTML page's layout in Chromium at a desktop and a phone width: the servers table fits its card
 * with long failures wrapped, cards have inner padding, no ordinary word of a title is split, and
 * "0 of 40" is not drawn in the colour of safety. Screenshots: test-artifacts/layout-<width>.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { htmlReporter } from '../../src/render/html/index.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';
import { artifact, launch, open } from './browser.js';

const LONG_FAILURE =
  'npm error code ENOTFOUND npm error network request to https://github.com/some-org/some-repository/releases/download/v0.8.8/a-rather-long-archive-name.tar.gz failed, ' +
  'reason: getaddrinfo ENOTFOUND github.com '.repeat(8);
const TITLES = ['Documentation Configuration Management', 'Recommendations Communication', 'Subscriptions'];
/** A hostile title with nowhere to break: it must wrap, not widen the table. */
const TOKEN = 'x'.repeat(150);

function servers(): ServerReport[] {
  const writes = Array.from({ length: 40 }, (_, i) => ({
    name: `write_something_${i}`,
    title: i === 1 ? TOKEN : TITLES[i % TITLES.length],
    annotations: { readOnlyHint: false },
  }));
  const failed = (i: number): ServerReport => ({
    ...okServer(`failing-server-with-a-long-name-${i}`, []),
    status: 'failed',
    failure: { kind: 'exited', message: LONG_FAILURE },
  });
  return [okServer('mcp-promptprojectmanager', writes), ...Array.from({ length: 6 }, (_, i) => failed(i))];
}

let browser: Browser;
let file: string;

beforeAll(async () => {
  file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-layout-')), 'report.html');
  writeFileSync(file, htmlReporter.render(reportOf(servers())));
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe.each([1280, 1024, 390])('at %ipx', (width) => {
  it('fits: no page overflow, the servers table inside its card, cards padded, titles whole, 0 of 40 not green', async () => {
    const o = await open(browser, file, { viewport: { width, height: 900 } });
    try {
      const m = await o.page.evaluate(() => {
        const wrap = document.querySelector('#servers')!.parentElement!;
        const pk = getComputedStyle(document.documentElement).getPropertyValue('--pk').trim();
        const probe = document.createElement('span');
        probe.style.color = pk;
        document.body.append(probe);
        const green = getComputedStyle(probe).color;
        probe.remove();
        // A word whose letters sit on two lines: split mid-word.
        const split: string[] = [];
        for (const el of document.querySelectorAll('td.title, h2, figcaption')) {
          const node = el.firstChild;
          if (!(node instanceof Text) || node.data.startsWith('xxx')) continue;
          for (const w of node.data.matchAll(/[a-z]{2,}/gi)) {
            const range = document.createRange();
            range.setStart(node, w.index);
            range.setEnd(node, w.index + w[0].length);
            if (range.getClientRects().length > 1) split.push(w[0]);
          }
        }
        const tools = document.querySelector('#t-0')!;
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          tools: tools.scrollWidth - tools.parentElement!.clientWidth,
          table: document.querySelector('#servers')!.scrollWidth,
          card: wrap.clientWidth,
          padding: [...document.querySelectorAll('.panel')].map((p) => parseFloat(getComputedStyle(p).paddingLeft)),
          big: getComputedStyle(document.querySelector('.headline .big')!).color,
          green,
          split,
        };
      });
      await o.page.screenshot({ path: artifact(`layout-${width}.png`), fullPage: true }).catch(() => undefined);
      expect(m.overflow).toBeLessThanOrEqual(0);
      expect(m.table).toBeLessThanOrEqual(m.card);
      expect(m.tools).toBeLessThanOrEqual(0);
      expect(m.padding.length).toBeGreaterThanOrEqual(2);
      for (const p of m.padding) expect(p).toBeGreaterThanOrEqual(12);
      expect(m.big).not.toBe(m.green);
      expect(m.split).toEqual([]);
      expect(o.errors).toEqual([]);
    } finally {
      await o.close();
    }
  });
});
