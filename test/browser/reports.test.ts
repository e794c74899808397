/**
 * The HTML page's search, filters, rule links, headline and name wrapping, in Chromium, on small
 * reports built here and rendered by the HTML reporter itself (no scan: these are about the page).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/html/page.js';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';
import { launch, open } from './browser.js';

let browser: Browser;
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-html-reports-'));

beforeAll(async () => {
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const server = (name: string, rawTools: Record<string, unknown>[]): ServerReport =>
  okServer(name, rawTools, {
    target: { transport: 'stdio', command: 'node', args: [`${name}.js`], source: `targets.json#${name}` },
    protocol: { era: 'legacy', version: '2025-06-18' },
    durationMs: 120,
  });

function failed(name: string): ServerReport {
  return {
    name,
    status: 'failed',
    failure: { kind: 'exited', message: 'the server exited with code 1 before answering' },
    target: { transport: 'stdio', command: 'node', args: [`${name}.js`] },
    idempotencyCapability: false,
    durationMs: 50,
    tools: [],
    findings: [],
  };
}

function report(servers: ServerReport[], options: Record<string, unknown> = {}): Report {
  return Report.parse(
    reportOf(servers, {
      tool: { name: 'idemscan', version: '0.1.0' },
      startedAt: '2026-11-30T10:00:00.000Z',
      finishedAt: '2026-11-30T10:00:05.000Z',
      options,
    }),
  );
}

let files = 0;
function page(r: Report, rulesBaseUrl?: string): string {
  const file = path.join(dir, `report-${++files}.html`);
  writeFileSync(file, renderPage(r, { rulesBaseUrl }));
  return file;
}

const write = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  annotations: { readOnlyHint: false, destructiveHint: false },
  ...extra,
});
const github = server('github', [
  write('create_issue', { title: 'Open an issue', description: 'Opens a new issue in a repository.' }),
  write('add_comment', { inputSchema: { type: 'object', properties: { body: { type: 'string' } } } }),
  { name: 'get_issue', annotations: { readOnlyHint: true } },
]);
const payments = server('payments', [
  write('charge_card', {
    description: 'Charges a card; retries are deduplicated.',
    inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
  }),
  { name: 'list_charges' }, // no annotations: missing-annotations is not raised for a read name, read-name-not-read-only is
]);
const notes = server('notes', [write('append_note'), write('delete_note')]);

describe('finding servers by their tools', () => {
  const shown = (p: import('playwright-core').Page) =>
    p.locator('#servers tbody tr:not([hidden]) th a').allTextContents();

  it('finds a server by a tool name, a title, a description or a key argument name', async () => {
    const o = await open(browser, page(report([github, payments, notes])));
    try {
      const { page: p } = o;
      await p.waitForSelector('html[data-ready="1"]');
      const filter = p.locator('#server-filter');
      for (const [query, servers] of [
        ['create_issue', ['github']],
        ['Open an issue', ['github']],
        ['deduplicated', ['payments']],
        ['idempotency_key', ['payments']],
        ['note', ['notes']],
        ['nothing-like-this', []],
      ] as const) {
        await filter.fill(query);
        expect(await shown(p), query).toEqual(servers);
      }
      expect(await p.locator('#server-count').textContent()).toBe('0 of 3 servers');
      await filter.fill('');
      expect(await shown(p)).toEqual(['github', 'payments', 'notes']);
      expect(o.errors).toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('filters one tool table by text, together with its verdict filter', async () => {
    const o = await open(browser, page(report([github, payments, notes])));
    try {
      const { page: p } = o;
      await p.waitForSelector('html[data-ready="1"]');
      const rows = () => p.locator('#t-0 tbody tr:not([hidden]) code.tool-name').allTextContents();
      await p.locator('#tf-0').fill('issue');
      expect(await rows()).toEqual(['create_issue', 'get_issue']);
      expect(await p.locator('#tc-0').textContent()).toBe('2 of 3 tools');
      await p.locator('#vf-0').selectOption('read-only');
      expect(await rows()).toEqual(['get_issue']);
      await p.locator('#tf-0').fill('');
      await p.locator('#vf-0').selectOption('');
      expect(await rows()).toEqual(['create_issue', 'add_comment', 'get_issue']);
      expect(await p.locator('#tc-0').textContent()).toBe('3 tools');
    } finally {
      await o.close();
    }
  });
});

describe('rule ids', () => {
  const hrefs = (p: import('playwright-core').Page) =>
    p.locator('.findings a.rule').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));

  it("link to the page's own Rules section (never a path of this machine), or under --rules-base-url", async () => {
    const odd = {
      ...notes,
      findings: [{ rule: 'x"><b>not-ours</b>', severity: 'info' as const, message: 'a rule id no catalogue has' }],
    };
    for (const base of [undefined, 'https://example.org/idemscan/rules']) {
      const o = await open(browser, page(report([github, payments, odd]), base));
      try {
        const links = await hrefs(o.page);
        expect(links.length).toBeGreaterThan(0);
        for (const [id, href] of links) {
          expect(href).toEqual(base ? `${base}/${id}.md` : `#rule-${id}`);
          // The in-page target exists and says what the rule is.
          if (!base) expect(await o.page.locator(`[id="rule-${id}"]`).textContent()).toContain(id!);
        }
        expect(await o.page.content()).not.toContain('file://');
        expect(links.map(([id]) => id)).toContain('read-name-not-read-only');
        // An id the catalogue does not know is shown as text, never made into a link.
        expect(
          await o.page
            .locator('.findings .rule')
            .filter({ hasText: 'not-ours' })
            .evaluate((el) => el.tagName),
        ).toBe('SPAN');
        expect(o.requests).toEqual([]);
      } finally {
        await o.close();
      }
    }
  });
});

describe('headline and counts', () => {
  it('an all-failed report says no server was scanned, not "0 tools" in green', async () => {
    const o = await open(browser, page(report([failed('a'), failed('b')])));
    try {
      const big = o.page.locator('.headline .big');
      expect(await big.textContent()).toBe('No server scanned');
      const [color, pk] = await big.evaluate((el) => [
        getComputedStyle(el).color,
        getComputedStyle(document.documentElement).getPropertyValue('--pk'),
      ]);
      const green = await o.page.evaluate((c) => {
        const probe = document.createElement('span');
        probe.style.color = c;
        document.body.append(probe);
        const out = getComputedStyle(probe).color;
        probe.remove();
        return out;
      }, pk.trim());
      expect(color).not.toBe(green);
      expect(await o.page.locator('.headline h2').textContent()).toContain('2 servers failed to scan');
    } finally {
      await o.close();
    }
  });

  it('an interrupted scan says how many targets were not scanned, not "all scanned"', async () => {
    const o = await open(browser, page(report([github, payments], { interrupted: true, scanned: 2, targets: 5 })));
    try {
      const servers = o.page.locator('.stats div').filter({ hasText: 'Servers' });
      expect(await servers.locator('small').textContent()).toBe('3 not scanned');
      expect(await o.page.locator('header .warning').textContent()).toContain('3 targets were not scanned');
      expect(await o.page.locator('.stats').textContent()).not.toContain('all scanned');
    } finally {
      await o.close();
    }
  });

  it('the first click on a numeric column sorts it largest first; a text column A to Z', async () => {
    const o = await open(browser, page(report([notes, github, payments])));
    try {
      const { page: p } = o;
      await p.waitForSelector('html[data-ready="1"]');
      const header = p.locator('#servers thead th').filter({ hasText: 'Tools' });
      await header.getByRole('button').click();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      expect(await p.locator('#servers tbody th a').allTextContents()).toEqual(['github', 'notes', 'payments']);
      await header.getByRole('button').click();
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      const name = p.locator('#servers thead th').filter({ hasText: 'Server' });
      await name.getByRole('button').click();
      expect(await name.getAttribute('aria-sort')).toBe('ascending');
      expect(await p.locator('#servers tbody th a').allTextContents()).toEqual(['github', 'notes', 'payments']);
    } finally {
      await o.close();
    }
  });
});

describe('long names', () => {
  it('break at _, - and case changes, never inside a word', async () => {
    const names = [
      'create_pull_request_review_comment_reply_with_suggestions',
      'getRepositoryContributorStatisticsForLastYear',
      'delete-all-workflow-run-artifacts-older-than',
    ];
    const wide = server(
      'a-server-with-a-long-descriptive-name_for_wrapping',
      names.map((n) => write(n)),
    );
    const o = await open(browser, page(report([wide])), { viewport: { width: 420, height: 900 } });
    try {
      const lines = await o.page.locator('code.tool-name').evaluateAll((els) =>
        els.map((el) => {
          const range = document.createRange();
          // Each run of text between two <wbr> is one word: it must sit on one line.
          const words = [...el.childNodes]
            .filter((n) => n.nodeType === Node.TEXT_NODE)
            .map((n) => {
              range.selectNodeContents(n);
              return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            });
          range.selectNodeContents(el);
          return {
            text: el.textContent,
            lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
            words,
          };
        }),
      );
      expect(lines.map((l) => l.text)).toEqual(names);
      for (const l of lines) {
        expect(l.lines, l.text!).toBeGreaterThan(1); // it did wrap in a narrow window
        expect(
          l.words.every((n) => n === 1),
          `${l.text}: ${l.words.join(',')}`,
        ).toBe(true);
      }
    } finally {
      await o.close();
    }
  });
});
