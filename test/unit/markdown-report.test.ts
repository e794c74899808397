/** The Markdown report's verdict breakdown and headline, and rule links in Markdown and SARIF. */
import { describe, expect, it } from 'vitest';
import { markdownReporter } from '../../src/render/markdown.js';
import { toSarif } from '../../src/render/sarif.js';
import { Report, type ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';

const server = (
  name: string,
  rawTools: Record<string, unknown>[],
  capabilities?: Record<string, unknown>,
): ServerReport => okServer(name, rawTools, capabilities ? { capabilities } : {});
const report = (servers: ServerReport[]) =>
  Report.parse(
    reportOf(servers, {
      tool: { name: 'idemscan', version: '0.1.0' },
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
    }),
  );

const write = { readOnlyHint: false, destructiveHint: false };
const one = report([
  server('shop', [
    { name: 'get_order', annotations: { readOnlyHint: true } },
    {
      name: 'create_order',
      annotations: write,
      inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
    },
    { name: 'update_order', annotations: { ...write, idempotentHint: true } },
    { name: 'list_refunds' }, // read-named, not read-only
  ]),
]);

describe('Markdown', () => {
  const md = markdownReporter.render(one);

  it('has the verdict breakdown: all five verdicts with counts and shares, and a total', () => {
    const table = md.slice(md.indexOf('## Verdicts'), md.indexOf('## Servers'));
    expect(table).toContain('| verdict | tools | share | what a client may do |');
    expect(table).toContain('| ✓ read-only | 1 | 25% |');
    expect(table).toContain('| ✓ protocol-keyed | 0 | 0% |');
    expect(table).toContain('| ✓ keyed | 1 | 25% |');
    expect(table).toContain('| ≈ idempotent | 1 | 25% |');
    expect(table).toContain('| ✗ unprotected | 1 | 25% |');
    expect(table).toContain('| **all** | **4** | 100% |');
  });

  it('has the headline, and says 1 server, not 1 servers', () => {
    expect(md).toContain('**1 of 3 tools that are not read-only can be retried safely (33%).**');
    expect(md).toContain('1 server (1 scanned, 0 failed), 4 tools.');
    expect(md).toContain('**all 1 server**');
  });

  it('counts read-named tools from the findings in the report, not by judging names again', () => {
    expect(md).toContain('| shop | - | 4 | 3 | 1 | 3 | 1 |');
    const quiet = structuredClone(one);
    for (const t of quiet.servers[0]!.tools) t.findings = [];
    expect(markdownReporter.render(quiet)).toContain('| shop | - | 4 | 3 | 1 | 3 | 0 |');
  });

  it('links rule pages only under --rules-base-url, never to a package page', () => {
    expect(md).not.toMatch(/\]\(http/);
    expect(md).not.toContain('npmjs');
    const linked = markdownReporter.render(one, { rulesBaseUrl: 'https://example.org/rules' });
    expect(linked).toContain('[read-name-not-read-only](https://example.org/rules/read-name-not-read-only.md)');
  });
});

describe('SARIF rule help', () => {
  it('carries each page as help text, and a helpUri only under --rules-base-url', () => {
    const plain = toSarif(one, process.cwd());
    const rules = plain.runs[0]!.tool.driver.rules!;
    expect(rules.every((r) => r.helpUri === undefined)).toBe(true);
    expect(rules.find((r) => r.id === 'missing-annotations')!.help!.text).toContain('What it detects');
    expect(JSON.stringify(plain)).not.toContain('npmjs');
    const linked = toSarif(one, process.cwd(), { rulesBaseUrl: 'https://example.org/rules/' });
    expect(linked.runs[0]!.tool.driver.rules!.find((r) => r.id === 'stdout-noise')!.helpUri).toBe(
      'https://example.org/rules/stdout-noise.md',
    );
  });
});
