/**
 * `idemscan probe` (docs/PROBE.md) against the effect-counting fixtures (servers/_effects.mjs), both
 * eras, over stdio and HTTP, through the built CLI: the outcome of each planned tool, the effects as
 * the server counted them, and that nothing outside the plan (nor anything at all in audit) is called.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, startHttpFixture, type HttpFixture } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { Report } from '../../src/model/schema.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-probe-'));
const file = (name: string, data: unknown) => {
  const p = path.join(dir, name);
  writeFileSync(p, JSON.stringify(data));
  return p;
};
const counts = { observe: { tool: 'get_counts' } };

/** Argument keys: honoured, ignored, none, an overwrite, a failure, and one without an observer. */
const ARGUMENT_PLAN = file('arguments.json', {
  tools: {
    create_order: { arguments: { item: 'book' }, ...counts, conflictArguments: { item: 'pen' } },
    create_invoice: { arguments: { amount: 5 }, ...counts },
    send_sms: { arguments: { to: '+100', body: 'hello' }, ...counts },
    set_status: { arguments: { status: 'shipped' }, observe: { tool: 'get_status' } },
    fail_payment: { arguments: { amount: 1 }, ...counts },
    charge_card: { arguments: { amount: 2 } },
  },
});
const ARGUMENT_OUTCOMES = {
  create_order: 'retry-safe',
  create_invoice: 'repeated-effect',
  send_sms: 'repeated-effect',
  set_status: 'retry-safe',
  fail_payment: 'failed',
  charge_card: 'inconclusive',
  get_counts: 'not-probed',
  delete_everything: 'not-probed',
};
const ARGUMENT_EFFECTS = {
  orders: 1,
  invoices: 2,
  sms: 2,
  statusWrites: 2,
  charges: 2,
  transfers: 0,
  failures: 1,
  moves: 0,
};

/** PROTOCOL_KEYS=1: params.idempotencyKey honoured (charge_card) and ignored (transfer_funds). */
const PROTOCOL_PLAN = file('protocol.json', {
  tools: {
    charge_card: { arguments: { amount: 3 }, ...counts, conflictArguments: { amount: 4 } },
    transfer_funds: { arguments: { amount: 3 }, ...counts },
  },
});

let n = 0;
function files() {
  const id = ++n;
  return {
    effects: path.join(dir, `effects-${id}.json`),
    marker: path.join(dir, `marker-${id}`),
    calls: path.join(dir, `calls-${id}.log`),
    json: path.join(dir, `report-${id}.json`),
  };
}
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));
const calledTools = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8').trim().split('\n') : []);

type Where = { kind: 'stdio' | 'http'; era: 'modern' | 'legacy' };
const servers: HttpFixture[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Runs probe against a fresh server of that kind; returns the CLI result, the report and the server's own counts. */
async function runProbe(where: Where, plan: string, env: Record<string, string> = {}, extra: string[] = []) {
  const f = files();
  const serverEnv = { ERA: where.era, EFFECTS_FILE: f.effects, MARKER: f.marker, CALLS_LOG: f.calls, ...env };
  let target: string[];
  if (where.kind === 'http') {
    const server = await startHttpFixture(serverEnv, FIXTURES.probeHttp);
    servers.push(server);
    target = [server.url];
  } else {
    target = ['--', process.execPath, FIXTURES.probeStdio];
    extra = [...Object.entries(serverEnv).flatMap(([k, v]) => ['--env', `${k}=${v}`]), ...extra];
  }
  const run = await idemscan([
    'probe',
    '--plan',
    plan,
    '--json',
    f.json,
    '--out',
    dir,
    '--format',
    'json',
    ...extra,
    ...target,
  ]);
  const report = existsSync(f.json) ? Report.parse(readJson(f.json)) : undefined;
  return { run, report, f, effects: existsSync(f.effects) ? readJson(f.effects) : undefined };
}

const outcomes = (report: Report | undefined) =>
  Object.fromEntries((report?.servers[0]?.tools ?? []).map((t) => [t.name, t.probe?.outcome]));

const WHERE: Where[] = [
  { kind: 'stdio', era: 'legacy' },
  { kind: 'stdio', era: 'modern' },
  { kind: 'http', era: 'legacy' },
  { kind: 'http', era: 'modern' },
];

describe.each(WHERE)('probe over $kind, $era era', (where) => {
  it('argument keys: honoured, ignored, none, an overwrite, a failure, no observer; nothing outside the plan called', async () => {
    const { run, report, f, effects } = await runProbe(where, ARGUMENT_PLAN);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(report!.servers[0]!.protocol?.era).toBe(where.era);
    expect(outcomes(report)).toMatchObject(ARGUMENT_OUTCOMES);
    expect(effects).toEqual(ARGUMENT_EFFECTS);
    expect(existsSync(f.marker)).toBe(false);
    const planned = new Set([
      'create_order',
      'create_invoice',
      'send_sms',
      'set_status',
      'fail_payment',
      'charge_card',
      'get_counts',
      'get_status',
    ]);
    expect(calledTools(f.calls).filter((t) => !planned.has(t))).toEqual([]);
    const order = report!.servers[0]!.tools.find((t) => t.name === 'create_order')!.probe!;
    expect(order).toMatchObject({ key: '$.idempotency_key', conflict: 'rejected' });
    expect(order.evidence.calls.map((c) => c.step)).toEqual([
      'observe-before',
      'call',
      'observe-after-call',
      'reissue',
      'observe-after-reissue',
      'conflict',
    ]);
    // The re-issue is a new request: a new JSON-RPC id.
    const [call, reissue] = ['call', 'reissue'].map((s) => order.evidence.calls.find((c) => c.step === s)!.id);
    expect(reissue).not.toBe(call);
    expect(report!.servers[0]!.tools.find((t) => t.name === 'fail_payment')!.probe!.evidence.reason).toContain(
      'call (fail_payment) answered isError: true',
    );
    expect(report!.summary.probe).toEqual({
      retrySafe: 2,
      reissueRefused: 0,
      repeatedEffect: 2,
      inconclusive: 1,
      failed: 1,
      // The observers get_counts and get_status were called: counted apart, not as not-probed.
      // 9: both branches' fixture tools are listed (read_file, write_file; list_files, move_file, move_file_rpc).
      notProbed: 9,
      observers: 2,
      observerCalls: 13,
    });
    expect(run.stderr).toMatch(/^idemscan probe: will call create_order, .*their effects are real/m);
  });

  it('protocol keys (tools.idempotency): params.idempotencyKey honoured and ignored', async () => {
    const { run, report, f, effects } = await runProbe(where, PROTOCOL_PLAN, { PROTOCOL_KEYS: '1' });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(report!.servers[0]!.idempotencyCapability).toBe(true);
    expect(outcomes(report)).toMatchObject({ charge_card: 'retry-safe', transfer_funds: 'repeated-effect' });
    const charge = report!.servers[0]!.tools.find((t) => t.name === 'charge_card')!.probe!;
    expect(charge).toMatchObject({ key: 'params.idempotencyKey', conflict: 'rejected' });
    expect(effects).toMatchObject({ charges: 1, transfers: 2 });
    expect(existsSync(f.marker)).toBe(false);
  });
});

/**
 * The plan's other shapes: a set-up step, a default observer, a tool planned as cases, and an
 * observer that errors until the effect happens. Tools in plan order (not the listing's).
 */
const SHAPES_PLAN = file('shapes.json', {
  setup: [{ tool: 'write_file', arguments: { path: 'log', content: 'seed;' } }],
  observe: { tool: 'read_file', arguments: { path: 'new' } },
  tools: {
    write_file: [
      { arguments: { path: 'new', content: 'v1' } },
      {
        arguments: { path: 'log', content: 'row;', mode: 'append' },
        observe: { tool: 'read_file', arguments: { path: 'log' } },
      },
    ],
    create_order: { arguments: { item: 'book' }, ...counts },
  },
});

describe.each(WHERE)('probe plan shapes over $kind, $era era', (where) => {
  it('setup once and first, a default observer, cases reported apart, an observer error observed', async () => {
    const { run, report, f } = await runProbe(where, SHAPES_PLAN);
    expect(run.exitCode, run.stderr).toBe(0);
    const server = report!.servers[0]!;
    const writeFile = server.tools.find((t) => t.name === 'write_file')!;
    expect(writeFile.probe).toBeUndefined();
    expect(writeFile.probes!.map((p) => [p.case, p.outcome])).toEqual([
      [1, 'retry-safe'],
      [2, 'repeated-effect'],
    ]);
    // Case 1's observer answered ENOENT before the call: the file's creation was observed.
    const first = writeFile.probes![0]!.evidence;
    expect(first.observer).toBe('read_file');
    expect(first.calls[0]).toMatchObject({ step: 'observe-before', status: 'tool-error' });
    expect(first.calls[0]!.answer).toContain('ENOENT');
    // Case 2 appends to what the set-up wrote, twice.
    const second = writeFile.probes![1]!.evidence.calls;
    expect(second.map((c) => c.answer)).toContain('seed;row;row;');
    expect(second[0]!.answer).toBe('seed;');
    expect(server.tools.find((t) => t.name === 'create_order')!.probe).toMatchObject({ outcome: 'retry-safe' });
    expect(server.tools.find((t) => t.name === 'create_order')!.probe!.case).toBeUndefined();
    expect(server.probeSetup).toMatchObject({
      requests: 1,
      calls: [{ step: 'setup-1', tool: 'write_file', status: 'ok' }],
    });
    expect(server.probeSetup!.failed).toBeUndefined();
    expect(report!.summary.probe).toMatchObject({ retrySafe: 2, repeatedEffect: 1, failed: 0 });
    // Set-up first, then the tools in plan order: write_file's two cases, then create_order.
    const calls = calledTools(f.calls);
    expect(calls[0]).toBe('write_file');
    expect(calls.indexOf('create_order')).toBeGreaterThan(calls.lastIndexOf('write_file'));
    expect(run.stderr).toMatch(
      /will call write_file, create_order .*observers read_file, get_counts, after the setup calls write_file \(once each\)/,
    );
  });
});

describe('probe: what it refuses, gates and survives', () => {
  it('a set-up tool the server does not list: exit 2 naming the plan file and the field, nothing called', async () => {
    const plan = file('setup-missing.json', {
      setup: [{ tool: 'seed_database', arguments: {} }],
      tools: { create_order: { arguments: { item: 'a' }, ...counts } },
    });
    const { run, f } = await runProbe({ kind: 'stdio', era: 'modern' }, plan);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`setup[0].tool ${plan}`);
    expect(run.stderr).toContain('"seed_database", which the server does not list');
    expect(existsSync(f.calls)).toBe(false);
  });

  it('a set-up step that fails: no experiment runs, each says why; --fail-on names each case', async () => {
    const plan = file('setup-fails.json', {
      setup: [
        { tool: 'fail_payment', arguments: { amount: 1 } },
        { tool: 'write_file', arguments: { path: 'x', content: 'never' } },
      ],
      tools: { send_sms: [{ arguments: { to: 'a', body: 'b' } }, { arguments: { to: 'c', body: 'd' } }] },
    });
    const { run, report, f, effects } = await runProbe({ kind: 'stdio', era: 'legacy' }, plan, {}, [
      '--fail-on',
      'failed',
    ]);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(calledTools(f.calls)).toEqual(['fail_payment']);
    expect(effects).toMatchObject({ sms: 0 });
    const server = report!.servers[0]!;
    expect(server.probeSetup).toMatchObject({
      requests: 1,
      failed: expect.stringContaining('setup[0] (fail_payment) answered isError: true'),
    });
    const sms = server.tools.find((t) => t.name === 'send_sms')!.probes!;
    expect(sms.map((p) => [p.case, p.outcome, p.evidence.requests])).toEqual([
      [1, 'failed', 0],
      [2, 'failed', 0],
    ]);
    expect(sms[0]!.evidence.reason).toContain("not run: the plan's setup failed");
    expect(run.stderr).toContain('--fail-on matched: send_sms case 1 (failed), send_sms case 2 (failed)');
  });

  it('without --plan: exit 2 and nothing is started, let alone called', async () => {
    const f = files();
    const run = await idemscan([
      'probe',
      '--env',
      `CALLS_LOG=${f.calls}`,
      '--env',
      `EFFECTS_FILE=${f.effects}`,
      '--',
      process.execPath,
      FIXTURES.probeStdio,
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('needs --plan');
    expect(existsSync(f.effects)).toBe(false); // the server never started
  });

  it('a plan naming a tool the server does not list, or a bad field: exit 2, nothing called', async () => {
    const missing = file('missing.json', {
      tools: { create_order: { arguments: { item: 'a' }, observe: { tool: 'count_orders' } } },
    });
    const { run, f } = await runProbe({ kind: 'stdio', era: 'legacy' }, missing);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('"count_orders", which the server does not list');
    expect(existsSync(f.calls)).toBe(false);
    const bad = file('bad.json', { tools: { create_order: { argumnets: {} } } });
    const badRun = await idemscan(['probe', '--plan', bad, '--', process.execPath, FIXTURES.probeStdio]);
    expect(badRun.exitCode).toBe(2);
    expect(badRun.stderr).toContain('tools.create_order: unknown field "argumnets"');
  });

  it('--fail-on repeated-effect exits 1 naming the tool; an unknown word is a usage error', async () => {
    const { run } = await runProbe({ kind: 'stdio', era: 'legacy' }, PROTOCOL_PLAN, {}, [
      '--fail-on',
      'repeated-effect',
    ]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--fail-on matched: charge_card (repeated-effect), transfer_funds (repeated-effect)');
    const bad = await idemscan([
      'probe',
      '--plan',
      PROTOCOL_PLAN,
      '--fail-on',
      'unprotected',
      '--',
      process.execPath,
      FIXTURES.probeStdio,
    ]);
    expect(bad.exitCode).toBe(2);
  });

  it('a tool that hangs fails alone; a server that dies fails its tool and the rest are not run, the report is still written', async () => {
    // Only the hanging tool's calls get a short bound. The server starts later than that bound on
    // purpose: starting, listing and the other calls keep --timeout, however loaded the machine.
    const plan = file('hang.json', {
      tools: {
        hang_forever: { arguments: {}, ...counts, timeoutMs: 1_000 },
        create_order: { arguments: { item: 'a' }, ...counts },
        exit_now: { arguments: {} },
        send_sms: { arguments: { to: 'x', body: 'y' } },
      },
    });
    const { run, report } = await runProbe({ kind: 'stdio', era: 'legacy' }, plan, { START_DELAY_MS: '1500' });
    expect(run.exitCode, run.stderr).toBe(0);
    const tools = report!.servers[0]!.tools;
    const probeOf = (name: string) => tools.find((t) => t.name === name)!.probe!;
    expect(probeOf('hang_forever')).toMatchObject({ outcome: 'failed' });
    expect(probeOf('hang_forever').evidence.reason).toBe(
      "call (hang_forever) no answer: no answer to tools/call within 1000 ms (the plan's timeoutMs)",
    );
    expect(probeOf('create_order').outcome).toBe('retry-safe');
    expect(probeOf('exit_now').outcome).toBe('failed');
    expect(probeOf('send_sms')).toMatchObject({ outcome: 'failed', evidence: { requests: 0 } });
    expect(probeOf('send_sms').evidence.reason).toContain('not run: the connection ended');
  });

  it('answers are redacted: a launch secret the server echoes never reaches the report', async () => {
    const secret = 'sk_live_9f8e7d6c5b4a39281706';
    const plan = file('secret.json', { tools: { send_sms: { arguments: { to: 'me', body: secret }, ...counts } } });
    const { run, f } = await runProbe({ kind: 'stdio', era: 'modern' }, plan, { SMS_API_TOKEN: secret });
    expect(run.exitCode, run.stderr).toBe(0);
    const text = readFileSync(f.json, 'utf8');
    expect(text).toContain('sms 1 to me');
    expect(text).not.toContain(secret);
  });

  it('runs under --sandbox, its test backend bound with --writable', async () => {
    const plan = file('sandbox.json', {
      tools: {
        create_order: { arguments: { item: 'a' }, ...counts },
        send_sms: { arguments: { to: 'x', body: 'y' }, ...counts },
      },
    });
    // The effects file does not exist yet: without --writable the server would make it in its private /tmp.
    const refused = await runProbe({ kind: 'stdio', era: 'modern' }, plan, {}, ['--sandbox']);
    expect(refused.run.exitCode).toBe(2);
    expect(refused.run.stderr).toContain('env EFFECTS_FILE names');
    const { run, report } = await runProbe({ kind: 'stdio', era: 'modern' }, plan, {}, [
      '--sandbox',
      '--writable',
      dir,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(report!.servers[0]!.target.sandbox).toBeDefined();
    expect(outcomes(report)).toMatchObject({ create_order: 'retry-safe', send_sms: 'repeated-effect' });
  });
});

describe('probe in every output', () => {
  it('the terminal, Markdown, HTML and SARIF show the outcomes', async () => {
    const out = mkdtempSync(path.join(dir, 'out-'));
    const run = await idemscan([
      'probe',
      '--plan',
      PROTOCOL_PLAN,
      '--out',
      out,
      '--format',
      'json,md,html,sarif',
      '--env',
      'PROTOCOL_KEYS=1',
      '--',
      process.execPath,
      FIXTURES.probeStdio,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('Probe: 1 retry-safe, 1 repeated-effect');
    expect(run.stdout).toMatch(
      /✓ charge_card: retry-safe \(key params\.idempotencyKey; conflict rejected; 6 requests, \d+ ms\)/,
    );
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(
      '| transfer\\_funds | ✗ repeated-effect | params.idempotencyKey | - | 5 |',
    );
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('for the tools of the probe plan only');
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(
      '<td>transfer_funds</td><td>✗ repeated-effect</td>',
    );
    const sarif = readJson(path.join(out, 'report.sarif'));
    const results = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId.startsWith('probe-'));
    expect(results.map((r: { ruleId: string; properties: { tool: string } }) => [r.ruleId, r.properties.tool])).toEqual(
      [['probe-repeated-effect', 'transfer_funds']],
    );
    expect(sarif.runs[0].tool.driver.rules[results[0].ruleIndex].id).toBe('probe-repeated-effect');
  });
});

describe('scan and audit never call a tool', () => {
  it('audit of the effects server leaves its calls log absent', async () => {
    const f = files();
    const run = await idemscan([
      'audit',
      '-q',
      '--env',
      `CALLS_LOG=${f.calls}`,
      '--env',
      `MARKER=${f.marker}`,
      '--',
      process.execPath,
      FIXTURES.probeStdio,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(f.calls)).toBe(false);
    expect(existsSync(f.marker)).toBe(false);
  });

  it('scan of the effects server (both eras) leaves its calls log absent', async () => {
    const f = files();
    const targets = file('targets.json', {
      servers: ['legacy', 'modern'].map((era) => ({
        name: `effects-${era}`,
        command: process.execPath,
        args: [FIXTURES.probeStdio],
        env: { ERA: era, CALLS_LOG: f.calls },
      })),
    });
    const run = await idemscan(['scan', '-q', '--out', dir, targets]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(f.calls)).toBe(false);
  });
});
