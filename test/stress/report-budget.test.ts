/** Size budgets after classification: the report of one server, and the HTML page. */
import { describe, expect, it } from 'vitest';
import { fitServerReport, REPORT_BYTES_PER_SERVER, sizeEstimate } from '../../src/model/budget.js';
import { reporter } from '../../src/render/index.js';
import { SCHEMA_VERSION, type Report, type ServerReport, type ToolReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';

const MiB = 1024 * 1024;
const NASTY = '<"&\u0001';
const nasty = (n: number) => NASTY.repeat(Math.ceil(n / NASTY.length)).slice(0, n);

/** A tool with every text at the bound classification leaves it at. */
function boundTool(i: number): ToolReport {
  return {
    name: `${nasty(250)}${i}`,
    title: nasty(256),
    description: nasty(4_000),
    annotations: {
      readOnlyHint: false,
      ...Object.fromEntries(Array.from({ length: 36 }, (_, j) => [`${nasty(60)}${j}`, nasty(256)])),
    },
    effective: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    verdict: 'keyed',
    keyArguments: Array.from({ length: 50 }, (_, j) => ({
      name: nasty(256),
      path: `$.${nasty(500)}${j}`,
      confidence: j === 49 ? ('strong' as const) : ('weak' as const),
      reason: 'name',
    })),
    findings: Array.from({ length: 5 }, () => ({
      rule: 'missing-annotations',
      severity: 'warning' as const,
      message: nasty(600),
      tool: nasty(256),
      evidence: nasty(200),
    })),
  };
}

const server = (name: string, tools: ToolReport[]): ServerReport => ({
  name,
  status: 'ok',
  target: { transport: 'stdio', command: 'node' },
  idempotencyCapability: false,
  durationMs: 1,
  tools,
  findings: [],
});

function report(servers: ServerReport[]): Report {
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'idemscan', version: '0' },
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:00:01Z',
    options: {},
    summary: summarize(servers),
    servers,
  };
}

describe('sizeEstimate', () => {
  it('charges parsed structure, not only characters, and survives deep nesting', () => {
    expect(sizeEstimate(Array(1000).fill({}))).toBeGreaterThan(10 * JSON.stringify(Array(1000).fill({})).length);
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(sizeEstimate(deep)).toBeGreaterThan(200_000);
  });
});

describe('one server within its report budget', () => {
  const tools = Array.from({ length: 5_000 }, (_, i) => boundTool(i));
  const fitted = fitServerReport(server('texts', tools));

  it('keeps the first tools whole and shortens the texts of the rest, never their verdicts', () => {
    expect(fitted.tools).toHaveLength(5_000);
    expect(fitted.tools[0]).toBe(tools[0]);
    const last = fitted.tools.at(-1)!;
    expect(last.verdict).toBe('keyed');
    expect(last.effective).toEqual(tools.at(-1)!.effective);
    expect(last.keyArguments[0]?.confidence).toBe('strong');
    expect(last.keyArguments.length).toBeLessThanOrEqual(5);
    const finding = fitted.findings.find((f) => f.rule === 'memory-budget');
    expect(finding?.evidence).toBe('report');
    expect(finding?.message).toMatch(/texts of its last [\d,]+ tools? are shortened/);
    // Past the budget, a few KB a tool, whatever the texts were.
    expect(sizeEstimate(fitted.tools)).toBeLessThan(REPORT_BYTES_PER_SERVER + 5_000 * 8 * 1024);
  });

  it('leaves a server within the budget as it is', () => {
    const small = server('small', tools.slice(0, 10));
    expect(fitServerReport(small)).toBe(small);
  });

  it('renders an HTML page of tens of MB at most, whose embedded JSON is valid and says it is shortened', async () => {
    const html = (await reporter('html')).render(report([fitted]));
    expect(html.length).toBeLessThan(40 * MiB);
    expect(html).toContain('To keep this page small');
    const embedded = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(embedded!) as Report;
    expect(data.options.htmlShortenedTools).toBeGreaterThan(0);
    expect(data.servers[0]!.tools).toHaveLength(5_000);
    expect(data.summary).toEqual(summarize([fitted]));
  });

  it('keeps the page bounded per tool for many servers', async () => {
    const many = Array.from({ length: 2 }, (_, i) => fitServerReport(server(`s${i}`, tools)));
    const html = (await reporter('html')).render(report(many));
    // 10,000 tools at their bound (in characters that escape 5 times longer): past the page
    // budget, the shortest texts, about 6 KB a tool in the page and its JSON together.
    expect(html.length - 16 * MiB).toBeLessThan(10_000 * 6 * 1024);
  });

  it('leaves an ordinary page as it was', async () => {
    const plain = {
      ...boundTool(0),
      name: 'create_payment',
      title: 'Pay',
      description: 'Create a payment.',
      annotations: { readOnlyHint: false },
      keyArguments: [],
      findings: [],
    };
    const html = (await reporter('html')).render(report([server('plain', [plain])]));
    expect(html).not.toContain('To keep this page small');
    expect(html).not.toContain('htmlShortenedTools');
  });
});
