/**
 * The HTML report at ecosystem scale: a synthetic report of SERVERS servers and TOOLS tools is rendered,
 * written to disk and opened from there in Debian's chromium. Prints the render time, the file size,
 * and per round the time to `load` and to the first interaction working (a typed server filter
 * applied), plus sorting and expanding every section. Goal: load and first interaction under 1 s.
 *   node --import tsx bench/html.bench.ts [SERVERS=200] [TOOLS=5000] [ROUNDS=5]
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from '../test/browser/browser.js';
import { htmlReporter } from '../src/render/html/index.js';
import { Report, type ServerReport, type ToolReport, type Verdict } from '../src/model/schema.js';
import { summarize } from '../src/model/summary.js';

const [servers = 200, tools = 5000, rounds = 5] = process.argv.slice(2).map(Number);

/** Deterministic pseudo-random numbers, so every run renders the same page. */
let seed = 42;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'send', 'search', 'sync', 'upload', 'archive'];
const NOUNS = ['issue', 'payment', 'message', 'file', 'record', 'invoice', 'user', 'branch', 'event', 'ticket'];
const VERDICTS: Verdict[] = [
  'read-only',
  'read-only',
  'read-only',
  'keyed',
  'idempotent',
  'unprotected',
  'unprotected',
  'unprotected',
];

function tool(n: number, capability: boolean): ToolReport {
  const name = `${pick(VERBS)}_${pick(NOUNS)}_${n}`;
  let verdict = pick(VERDICTS);
  if (capability && verdict !== 'read-only') verdict = 'protocol-keyed';
  const readOnly = verdict === 'read-only';
  const annotations: Record<string, unknown> | undefined =
    random() < 0.3
      ? undefined
      : {
          readOnlyHint: readOnly,
          ...(verdict === 'idempotent' ? { idempotentHint: true } : {}),
          ...(random() < 0.5 ? { destructiveHint: !readOnly } : {}),
        };
  return {
    name,
    title: random() < 0.5 ? name.replace(/_/g, ' ') : undefined,
    description: `${name.replace(/_/g, ' ')}: ${'Does one thing with the remote service and returns the result as JSON. '.repeat(1 + Math.floor(random() * 3))}`,
    annotations,
    effective: { readOnly, destructive: !readOnly, idempotent: verdict === 'idempotent', openWorld: true },
    verdict,
    keyArguments:
      verdict === 'keyed'
        ? [{ name: 'idempotency_key', path: '$.options.idempotency_key', confidence: 'strong', reason: 'name' }]
        : [],
    findings: annotations
      ? []
      : [
          {
            rule: 'missing-annotations',
            severity: 'warning',
            message: 'no behaviour hints: clients must assume a destructive, non-idempotent write',
            tool: name,
          },
        ],
  };
}

function syntheticReport(): Report {
  const failedEvery = 20;
  const okServers = servers - Math.floor(servers / failedEvery);
  const list: ServerReport[] = [];
  let made = 0;
  let ok = 0;
  for (let i = 0; i < servers; i++) {
    const base = {
      name: `server-${String(i).padStart(3, '0')}`,
      target: {
        transport: 'stdio' as const,
        command: 'node',
        args: [`/srv/mcp/server-${i}/index.js`],
        source: 'bench#synthetic',
      },
      findings: [],
      trusted: false,
    };
    if (i % failedEvery === failedEvery - 1) {
      list.push({
        ...base,
        status: 'failed',
        idempotencyCapability: false,
        durationMs: 30_000,
        tools: [],
        failure: {
          kind: 'timeout',
          message: 'no complete answer within 30000 ms (--timeout)',
          stderr: 'Listening on stdio…\nwarn: slow start\n',
        },
      });
      continue;
    }
    ok++;
    const count =
      ok === okServers ? tools - made : Math.max(1, Math.round((tools / okServers) * (0.4 + random() * 1.2)));
    const capability = i % 25 === 0;
    const list_ = Array.from({ length: Math.min(count, tools - made) }, (_, k) => tool(made + k, capability));
    made += list_.length;
    list.push({
      ...base,
      status: 'ok',
      protocol: { era: i % 3 === 0 ? 'modern' : 'legacy', version: i % 3 === 0 ? '2026-07-28' : '2025-06-18' },
      serverInfo: { name: `mcp-server-${i}`, version: '1.0.0' },
      idempotencyCapability: capability,
      durationMs: 400 + Math.floor(random() * 2000),
      tools: list_,
    });
  }
  return Report.parse({
    schemaVersion: '1',
    tool: { name: 'idemscan', version: 'bench' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:05:00.000Z',
    options: {},
    summary: summarize(list),
    servers: list,
  });
}

/** In-page costs of the script's work: its synchronous part plus the next frame's style and layout. */
const IN_PAGE_COSTS = `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const time = async (f) => {
    const t0 = performance.now();
    f();
    document.body.getBoundingClientRect();
    await frame();
    return performance.now() - t0;
  };
  const input = document.getElementById('server-filter');
  const filter = await time(() => {
    input.value = 'legacy';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  input.value = '';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const sortButton = [...document.querySelectorAll('#servers thead button')].find((b) => b.textContent.startsWith('Unprotected'));
  const sort = await time(() => sortButton.click());
  const expandAll = await time(() => document.querySelector('button[data-action="expand"]').click());
  return { filter, sort, expandAll };
})()`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number): string => `${n.toFixed(0)} ms`;

const report = syntheticReport();
let t = performance.now();
const html = htmlReporter.render(report);
const renderMs = performance.now() - t;
const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-html-bench-')), 'report.html');
writeFileSync(file, html);
const size = statSync(file).size;
console.log(
  `report: ${report.summary.servers} servers (${report.summary.serversFailed} failed), ${report.summary.tools} tools`,
);
console.log(`render: ${ms(renderMs)}; file: ${(size / 1024 / 1024).toFixed(2)} MiB (${size} bytes), ${file}`);

const browser = await launch(); // the tests' own Debian chromium and flags
const results: Record<string, number[]> = {
  load: [],
  interactive: [],
  domInteractive: [],
  fcp: [],
  filter: [],
  sort: [],
  expandAll: [],
};
try {
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    t = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    results.load!.push(performance.now() - t);
    // The first interaction, as a user does it: type into the filter, until the table shows the result.
    await page.locator('#server-filter').fill('server-007');
    await page.waitForFunction(() => document.getElementById('server-count')?.textContent === '1 of 200 servers');
    results.interactive!.push(performance.now() - t);
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return { domInteractive: n.domInteractive, fcp: fcp ? fcp.startTime : NaN };
    });
    results.domInteractive!.push(nav.domInteractive);
    results.fcp!.push(nav.fcp);
    // In-page costs of the script's work (synchronous part plus the next frame's layout).
    // A string, not a function: tsx would wrap named arrows in a helper the page does not have.
    const costs = (await page.evaluate(IN_PAGE_COSTS)) as { filter: number; sort: number; expandAll: number };
    results.filter!.push(costs.filter);
    results.sort!.push(costs.sort);
    results.expandAll!.push(costs.expandAll);
    if (errors.length) console.log(`console errors: ${errors.join('; ')}`);
    await context.close();
  }
} finally {
  await browser.close();
}

console.log(`chromium, ${rounds} rounds, median (min-max):`);
const labels: Record<string, string> = {
  load: 'goto to load event',
  interactive: 'goto to first filter applied',
  domInteractive: 'navigation to domInteractive',
  fcp: 'first contentful paint',
  filter: 'filter 200 servers (in page)',
  sort: 'sort the server table (in page)',
  expandAll: 'expand all 5,000 tool rows',
};
for (const [key, xs] of Object.entries(results)) {
  console.log(
    `  ${labels[key]!.padEnd(34)} ${ms(median(xs)).padStart(8)}  (${ms(Math.min(...xs))}-${ms(Math.max(...xs))})`,
  );
}
