/**
 * The built CLI over real fixture servers: an unsharded scan equals its 3 shards merged; `diff`
 * exit codes; `merge` refusals.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DiffDocument } from '../../src/model/diff.js';
import { Report } from '../../src/model/schema.js';
import { scan } from '../../src/app/scan/scan.js';
import { shardOf } from '../../src/targets/shard.js';
import type { TargetInput } from '../../src/targets/types.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-shard-'));
const flags = ['--timeout', '15000', '-q'];
const node = (name: string, file: string) => ({ name, command: process.execPath, args: [file] });
const raw = (name: string, mode: string) => ({ ...node(name, FIXTURES.raw), env: { MODE: mode } });
const servers = [
  node('modern', FIXTURES.modernStdio),
  node('legacy', FIXTURES.legacyStdio),
  node('dual', FIXTURES.dualStdio),
  raw('many-pages', 'many-pages'),
  raw('banner', 'banner'),
  raw('idempotency-cap', 'idempotency-cap'),
  raw('malformed-tool', 'malformed-tool'),
  raw('crash', 'crash'),
  raw('crash-after-init', 'crash-after-init'),
];
const targetFile = path.join(dir, 'targets.json');
writeFileSync(
  targetFile,
  JSON.stringify({ servers: [...servers, { name: 'later', command: 'docker', skip: 'needs Docker' }] }),
);
const read = (file: string) => Report.parse(JSON.parse(readFileSync(file, 'utf8')));
const out = (name: string) => path.join(dir, name);

let whole: Report;
let merged: Report;
let shardErr: string[] = [];
const shardFiles = [1, 2, 3].map((i) => out(`shard-${i}.json`));

beforeAll(async () => {
  // One after the other: parallel scans on two cores could time a server out in one and not the other.
  const runs = [await idemscan(['scan', targetFile, '--json', out('whole.json'), '--out', out('o-whole'), ...flags])];
  for (const [i, file] of shardFiles.entries()) {
    runs.push(
      await idemscan(['scan', targetFile, '--shard', `${i + 1}/3`, '--json', file, '--out', out(`o-${i}`), ...flags]),
    );
  }
  // 3 = every target of that shard failed (possible with the crash fixtures): still a report.
  for (const r of runs) expect([0, 3], r.stderr).toContain(r.exitCode);
  shardErr = runs.slice(1).map((r) => r.stderr);
  whole = read(out('whole.json'));
  const m = await idemscan(['merge', ...shardFiles, '--json', out('merged.json')]);
  expect(m.exitCode, m.stderr).toBe(0);
  expect(m.stderr).toContain(`merged 3 reports: ${servers.length} servers`);
  merged = read(out('merged.json'));
}, 120_000);

describe('scan --shard and merge', () => {
  it('each shard holds the targets that hash to it, and records its shard', () => {
    shardFiles.forEach((file, i) => {
      const r = read(file);
      expect(r.options.shard).toEqual({ index: i + 1, count: 3 });
      const expected = servers.filter((s) => shardOf(s.name, 3) === i + 1).map((s) => s.name);
      expect(r.servers.map((s) => s.name).sort()).toEqual(expected.sort());
      expect(r.skipped?.map((s) => s.name)).toEqual(['later']);
    });
  });

  it('a skipped entry is said by the one shard its name falls in, not by each', () => {
    const saying = shardErr.map((e) => e.includes('skipped later'));
    expect(saying).toEqual([1, 2, 3].map((i) => shardOf('later', 3) === i));
  });

  it('the merged summary equals the unsharded one, and so do the servers', () => {
    expect(merged.summary).toEqual(whole.summary);
    expect(whole.summary).toMatchObject({ servers: servers.length, serversFailed: 2 });
    expect(merged.servers.map((s) => s.name)).toEqual([...whole.servers.map((s) => s.name)].sort());
    const shape = (r: Report) =>
      Object.fromEntries(
        r.servers.map((s) => [
          s.name,
          { status: s.status, tools: s.tools.map((t) => [t.name, t.verdict, t.keyArguments]) },
        ]),
      );
    expect(shape(merged)).toEqual(shape(whole));
  });

  it('keeps the options of the first shard, names the files, spans the times, dedupes skipped', () => {
    expect(merged.options).toMatchObject({ timeoutMs: 15_000, mergedFrom: shardFiles });
    expect(merged.options.shard).toBeUndefined();
    const shards = shardFiles.map(read);
    expect(merged.startedAt).toBe(shards.map((r) => r.startedAt).sort()[0]);
    expect(merged.finishedAt).toBe(
      shards
        .map((r) => r.finishedAt)
        .sort()
        .at(-1),
    );
    expect(merged.skipped).toEqual(whole.skipped);
  });

  it('agrees with the library: scan() of the same targets counts the same', async () => {
    const targets: TargetInput[] = servers.map((s) => ({ ...s, source: 'test', transport: 'stdio' }));
    const lib = await scan(targets, { timeoutMs: 15_000 });
    expect(lib.summary).toEqual(merged.summary);
  });

  it('an empty shard is an empty report (exit 0); a bad --shard is a usage error', async () => {
    const one = path.join(dir, 'one.json');
    writeFileSync(one, JSON.stringify({ servers: [servers[0]] }));
    const empty = [1, 2, 3, 4].find((i) => shardOf('modern', 4) !== i)!;
    const r = await idemscan([
      'scan',
      one,
      '--shard',
      `${empty}/4`,
      '--json',
      out('empty.json'),
      '--out',
      out('o-empty'),
      ...flags,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(read(out('empty.json')).summary.servers).toBe(0);
    for (const bad of ['0/3', '4/3', 'x']) {
      const b = await idemscan(['scan', one, '--shard', bad, '--out', out('o-bad')]);
      expect(b.exitCode).toBe(2);
      expect(b.stderr).toContain('--shard');
    }
  });

  it('merge refuses the same shard twice and an invalid report (exit 2)', async () => {
    const twice = await idemscan(['merge', shardFiles[0]!, shardFiles[1]!, shardFiles[0]!]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/shard-1\.json is given twice/);
    const overlap = await idemscan(['merge', shardFiles[0]!, out('whole.json')]);
    expect(overlap.exitCode).toBe(2);
    expect(overlap.stderr).toMatch(/server ".+" is in both .*shard-1\.json and .*whole\.json/);
    const bad = out('bad.json');
    writeFileSync(bad, JSON.stringify({ ...whole, summary: { servers: 'many' } }));
    const invalid = await idemscan(['merge', shardFiles[0]!, bad]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/bad\.json: invalid report: summary\.servers/);
  });

  it('merge --out writes report.json there; without --json or --out it prints JSON', async () => {
    const r = await idemscan(['merge', ...shardFiles, '--out', out('o-merged'), '-q']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(read(path.join(out('o-merged'), 'report.json')).summary).toEqual(whole.summary);
    const s = await idemscan(['merge', ...shardFiles, '-q']);
    expect(Report.parse(JSON.parse(s.stdout)).summary).toEqual(whole.summary);
  });
});

describe('diff exit codes', () => {
  let worse: string;
  beforeAll(() => {
    // The next week: modern's get_balance lost its readOnlyHint, legacy stopped answering.
    const next = structuredClone(whole);
    const modern = next.servers.find((s) => s.name === 'modern')!;
    const tool = modern.tools.find((t) => t.name === 'get_balance')!;
    tool.annotations = {};
    tool.verdict = 'unprotected';
    const legacy = next.servers.find((s) => s.name === 'legacy')!;
    Object.assign(legacy, { status: 'failed', failure: { kind: 'timeout', message: 'no answer' }, tools: [] });
    worse = out('worse.json');
    writeFileSync(worse, JSON.stringify(next));
  });

  it('0 without changes, and without --fail-on whatever changed', async () => {
    const same = await idemscan(['diff', out('whole.json'), out('merged.json'), '--fail-on', 'regression']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stdout).toContain('no changes');
    const changed = await idemscan(['diff', out('whole.json'), worse]);
    expect(changed.exitCode).toBe(0);
    expect(changed.stdout).toMatch(/WORSE +get_balance: verdict read-only -> unprotected/);
    expect(changed.stdout).toMatch(/WORSE +status ok -> failed \(timeout: no answer\)/);
  });

  it('1 with --fail-on regression when something got worse; 0 the other way round', async () => {
    const r = await idemscan(['diff', out('whole.json'), worse, '--fail-on', 'regression', '--format', 'json']);
    expect(r.exitCode).toBe(1);
    const doc = DiffDocument.parse(JSON.parse(r.stdout));
    expect(doc.regression).toBe(true);
    expect(doc.changes.map((c) => c.kind)).toEqual(['status-changed', 'verdict-changed', 'annotation-changed']);
    const back = await idemscan(['diff', worse, out('whole.json'), '--fail-on', 'regression', '--format', 'md']);
    expect(back.exitCode).toBe(0);
    expect(back.stdout).toContain('## idemscan diff');
  });

  it('2 for a missing or invalid report (naming file and field) and for bad flags', async () => {
    const missing = await idemscan(['diff', out('nope.json'), worse]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.json: cannot read: no such file (ENOENT)');
    const bad = out('bad-verdict.json');
    const doc = structuredClone(whole);
    writeFileSync(bad, JSON.stringify({ ...doc, servers: [{ ...doc.servers[0], status: 'maybe' }] }));
    const invalid = await idemscan(['diff', bad, worse, '--fail-on', 'regression']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/bad-verdict\.json: invalid report: servers\[0\]\.status/);
    expect((await idemscan(['diff', out('whole.json'), worse, '--fail-on', 'anything'])).exitCode).toBe(2);
    expect((await idemscan(['diff', out('whole.json'), worse, '--format', 'xml'])).exitCode).toBe(2);
    expect((await idemscan(['diff', out('whole.json')])).exitCode).toBe(2);
  });
});
