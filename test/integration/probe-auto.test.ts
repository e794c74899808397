/**
 * `idemscan probe --auto` (docs/PROBE.md, "Without a plan") through the built CLI, on a real SDK
 * server whose tools cover each case: an overwrite, an append declared idempotent, a counter, a
 * keyed create, honest reads, a read that ticks a clock, a move, a read-only tool that creates a
 * file, a patterned argument, and a request log that every call appends to. Each tool runs on a
 * fresh server under bubblewrap, so every outcome below holds whatever the listing's order.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { Report } from '../../src/model/schema.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
if (!hasBwrap) console.warn('probe-auto.test.ts: skipped, bubblewrap (bwrap) does not work on this machine');

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-auto-test-')));
const env = { HOME: path.join(dir, 'home'), IDEMSCAN_CACHE: path.join(dir, 'cache') };
mkdirSync(env.HOME);

const probe = (args: string[]) =>
  idemscan(['probe', ...args, '--', process.execPath, FIXTURES.autoProbe], { env, cwd: dir });

describe.skipIf(!hasBwrap)('probe --auto', () => {
  it('judges each tool by what it did to the files it may write, and sets that against its hints', async () => {
    const out = path.join(dir, 'out');
    const r = await probe([
      '--auto',
      '--sandbox',
      '--out',
      out,
      '--format',
      'json,sarif',
      '--profile',
      'openai-apps',
      '--fail-on',
      'overstates',
      '-q',
    ]);
    expect(r.stderr).toMatch(
      /will call every tool of .*auto-probe\.mjs twice, each on a fresh server inside the sandbox/,
    );
    expect(r.stderr).toMatch(/calling each of 11 tools of .*auto-probe\.mjs twice, inside the sandbox/);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /--fail-on matched: append_log \(overstates its hints\), read_clock \(repeated-effect\)|--fail-on matched: .*append_log/,
    );
    const report = Report.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const tools = new Map(report.servers[0]!.tools.map((t) => [t.name, t]));
    const seen = (name: string) => {
      const p = tools.get(name)!.probe!;
      return [p.method, p.outcome, p.agreement];
    };
    expect(seen('put_note')).toEqual(['auto', 'retry-safe', 'agrees']);
    expect(seen('append_log')).toEqual(['auto', 'repeated-effect', 'overstates']);
    expect(seen('add_item')).toEqual(['auto', 'repeated-effect', 'agrees']);
    expect(seen('create_order')).toEqual(['auto', 'retry-safe', 'agrees']);
    expect(seen('list_notes')).toEqual(['auto', 'inconclusive', 'agrees']);
    expect(seen('read_clock')).toEqual(['auto', 'repeated-effect', 'overstates']);
    expect(seen('move_file')).toEqual(['auto', 'reissue-refused', 'understates']);
    expect(seen('touch_stamp')).toEqual(['auto', 'retry-safe', 'overstates']);
    expect(seen('needs_pattern')).toEqual(['auto', 'inconclusive', 'agrees']);
    expect(report.summary.probe).toMatchObject({ retrySafe: 3, repeatedEffect: 3, reissueRefused: 1, inconclusive: 4 });

    // The evidence: the arguments, the files each step changed, and the request log learned from the control.
    const order = tools.get('create_order')!.probe!;
    expect(order.arguments).toMatchObject({ sku: 'probe', idempotency_key: expect.stringMatching(/^idemscan-auto-/) });
    expect(order.key).toBe('$.idempotency_key');
    const log = tools.get('append_log')!.probe!.evidence.changes!;
    expect(log).toEqual({
      call: ['home/log.txt: added (6 bytes)'],
      reissue: ['home/log.txt: changed (6 -> 12 bytes)'],
      ignored: ['tmp/auto-probe-requests.log'],
    });
    const move = tools.get('move_file')!.probe!;
    expect(move.arguments!.source).toMatch(/^\$SCRATCH\/work\//);
    expect(move.evidence.changes!.call).toEqual(expect.arrayContaining([expect.stringMatching(/: removed$/)]));
    expect(tools.get('read_clock')!.probe!.evidence.observer).not.toContain('read_clock');
    expect(tools.get('put_note')!.probe!.evidence.observer).not.toContain('read_clock');

    const contradict = report.servers[0]!.tools.flatMap((t) =>
      t.findings.filter((f) => f.rule === 'hints-contradict-behaviour').map((f) => `${f.severity} ${t.name}`),
    );
    expect(contradict.sort()).toEqual(['error append_log', 'error read_clock', 'error touch_stamp', 'info move_file']);
    const profile = report.servers[0]!.tools.flatMap((t) =>
      t.findings.filter((f) => f.rule === 'openai-apps/annotations-match-behaviour').map(() => t.name),
    );
    expect(profile.sort()).toEqual(['append_log', 'read_clock', 'touch_stamp']);
    const sarif = readFileSync(path.join(out, 'report.sarif'), 'utf8');
    expect(sarif).toContain('"ruleId": "hints-contradict-behaviour"');
  });

  it('refuses to run without bubblewrap or on a URL, before anything starts', async () => {
    const bare = await probe(['--auto']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('only with --sandbox under bubblewrap');
    const url = await idemscan(['probe', '--auto', '--sandbox', 'http://127.0.0.1:9/mcp'], { env, cwd: dir });
    expect(url.exitCode).toBe(2);
    expect(url.stderr).toContain('--auto probes a stdio server only');
  });
});

describe.skipIf(!hasBwrap)('probe --auto, a tool that hangs or kills its server', () => {
  it('fails that tool only: the others keep their outcomes', async () => {
    const out = path.join(dir, 'hostile');
    const r = await probe([
      '--auto',
      '--sandbox',
      '--timeout',
      '6000',
      '--env',
      'AUTO_PROBE_HOSTILE=1',
      '--out',
      out,
      '-q',
    ]);
    expect(r.exitCode).toBe(0);
    const report = Report.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const outcome = new Map(report.servers[0]!.tools.map((t) => [t.name, t.probe!.outcome]));
    expect(outcome.get('never_answers')).toBe('failed');
    expect(outcome.get('kills_server')).toBe('failed');
    expect(outcome.get('put_note')).toBe('retry-safe');
    expect(outcome.get('append_log')).toBe('repeated-effect');
    expect(report.summary.probe).toMatchObject({ retrySafe: 3, repeatedEffect: 3, failed: 2 });
  });
});
