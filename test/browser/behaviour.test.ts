/**
 * The behaviour table's page and the index's section in Chromium, from the hand-written table with
 * hostile names and reasons (test/fixtures/behaviour/table.json): nothing blocked, run or fetched,
 * every experiment a row, the hostile tool name shown as text, its reason in a detail that opens.
 * Screenshot: test-artifacts/behaviour.png.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { writeIndex } from '../../src/census/publish/run-index-files.js';
import { rebuildIndex } from '../../src/census/publish/run-index.js';
import { BehaviourTable } from '../../src/census/behaviour/behaviour.js';
import { behaviourHtml } from '../../src/census/behaviour/behaviour-render.js';
import { artifact, launch, open } from './browser.js';

const table = BehaviourTable.parse(
  JSON.parse(readFileSync(new URL('../fixtures/behaviour/table.json', import.meta.url), 'utf8')),
);
const HOSTILE = table.rows[4]!;

it('shows every experiment with its hostile text as text, the reason in a detail, and nothing blocked or run', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bt-page-'));
  mkdirSync(path.join(root, 'behaviour'));
  writeFileSync(path.join(root, 'behaviour', 'behaviour.json'), JSON.stringify(table));
  writeFileSync(path.join(root, 'behaviour', 'behaviour.html'), behaviourHtml(table));
  const rebuilt = await rebuildIndex(root, (file, why) => {
    throw new Error(`${file}: ${why}`);
  });
  await writeIndex(root, rebuilt.index, rebuilt.history, () => undefined, { behaviour: rebuilt.behaviour });

  const browser = await launch();
  try {
    const o = await open(browser, path.join(root, 'index.html'), { viewport: { width: 1280, height: 900 } });
    const { page } = o;
    expect(await page.locator('section#behaviour li').count()).toBe(3);
    await page.getByRole('link', { name: 'the whole table' }).click();
    await page.waitForLoadState('load');
    expect(page.url()).toMatch(/\/behaviour\/behaviour\.html$/);
    const rows = page.locator('table.behaviour tbody tr');
    expect(await rows.count()).toBe(table.rows.length);
    const hostile = rows.nth(4);
    expect((await hostile.locator('td').nth(1).textContent())!.replace(/\s+/g, ' ')).toBe(
      HOSTILE.tool.replace('\u001b', '\\u001b').replace(/\s+/g, ' '),
    );
    await hostile.locator('summary').click();
    expect(await hostile.locator('details').textContent()).toContain('<img src=x onerror=alert(2)>');
    await page.screenshot({ path: artifact('behaviour.png'), fullPage: true, timeout: 60_000 }).catch(() => undefined);
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(await o.violations()).toEqual([]);
    expect(o.requests.filter((u) => !u.endsWith('/behaviour/behaviour.html'))).toEqual([]);
    await o.close();
  } finally {
    await browser.close();
  }
}, 120_000);
