/** `--baseline`'s lock, read a server at a time: the same checks and words as the whole-file read. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyServer } from '../../src/classify/index.js';
import { driftOf } from '../../src/compare/drift.js';
import { lockOf, readLockedServers, readLockFile } from '../../src/compare/lock.js';
import { ReportFileError } from '../../src/compare/read.js';
import type { Report, ServerReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-locked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tool = { name: 't', definitionHash: 'sha256:ab', verdict: 'unprotected', hints: {} };
const lock = (servers: unknown[]) => ({
  lockVersion: '1',
  tool: { name: 'idemscan', version: '0' },
  lockedAt: 'x',
  servers,
});
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (e: Error) => e.message,
  );

it('keeps each server, by name, as JSON that parses to what the whole-file read gives', async () => {
  const servers = [
    { name: 'a', status: 'ok', tools: [tool] },
    { name: 'b', status: 'failed', tools: [] },
  ];
  const f = file('good.json', JSON.stringify(lock(servers), null, 2));
  const got = await readLockedServers(f);
  const whole = await readLockFile(f);
  expect([...got.servers.keys()]).toEqual(['a', 'b']);
  for (const [i, [s, e]] of [...got.servers.values()].entries())
    expect(JSON.parse(got.bytes.toString('utf8', s, e))).toEqual(whole.servers[i]);
});

it('names the server and the field that is wrong, as the whole-file read does', async () => {
  const f = file(
    'bad.json',
    JSON.stringify(
      lock([
        { name: 'a', status: 'ok', tools: [tool] },
        { name: 'b', status: 'ok', tools: [{ ...tool, verdict: 'safe' }] },
      ]),
    ),
  );
  const words = await failure(readLockedServers(f));
  expect(words).toContain('invalid lock file: servers[1].tools[0].verdict');
  expect(words).toBe(await failure(readLockFile(f)));
  expect(await failure(readLockedServers(file('head.json', JSON.stringify({ ...lock([]), lockedAt: 7 }))))).toContain(
    'invalid lock file: lockedAt',
  );
  const broken = JSON.stringify(lock([{ name: 'a', status: 'ok', tools: [] }])).replace('"name":"a"', '"name":');
  expect(await failure(readLockedServers(file('syntax.json', broken)))).toContain('not valid JSON: servers[0]');
});

it('finds a servers key written with escapes, with the same result', async () => {
  const text = JSON.stringify(lock([{ name: 'a', status: 'ok', tools: [tool] }])).replace(
    '"servers"',
    '"serv\\u0065rs"',
  );
  const got = await readLockedServers(file('escaped.json', text));
  expect([...got.servers.keys()]).toEqual(['a']);
});

describe('a lock whose top-level object holds a key twice', () => {
  const report = (description: string): Report => {
    const c = classifyServer({ name: 'srv', rawTools: [{ name: 'write', description }] });
    const target = { transport: 'stdio' as const };
    const s: ServerReport = { name: 'srv', status: 'ok', target, durationMs: 1, ...c };
    const head = { schemaVersion: '1' as const, tool: { name: 'idemscan', version: '0' }, startedAt: 't0' };
    return { ...head, finishedAt: 't1', options: {}, summary: summarize([s]), servers: [s] };
  };
  // The tool changed its definition since it was reviewed.
  const scanned = report('Writes; now also mails the file away.');
  const reviewed = lockOf(report('Writes.'));
  // The first `servers` matches the scan; the last, the one JSON.parse, jq and a reviewer read, does not.
  const forged = (key: string) =>
    JSON.stringify({ ...reviewed, servers: lockOf(scanned).servers }).replace(
      /\}$/,
      `,"${key}":${JSON.stringify(reviewed.servers)}}`,
    );

  it.each([
    ['escaped', 'serv\\u0065rs'],
    ['plain', 'servers'],
  ])('is refused by the per-server read, naming the file (%s)', async (name, key) => {
    const f = file(`dup-${name}.json`, forged(key));
    // As JSON means it, the lock drifted: the per-server read must not say otherwise.
    expect(driftOf(scanned, await readLockFile(f), f).drifted).toBe(true);
    const err: unknown = await readLockedServers(f, '--baseline').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReportFileError);
    expect((err as ReportFileError).file).toBe(f);
    expect((err as Error).message).toBe(
      `--baseline ${f}: ambiguous lock file: its top-level key "servers" appears twice (JSON readers differ on which one counts)`,
    );
  });

  it('is refused for any key read twice, not only servers', async () => {
    const text = JSON.stringify(reviewed).replace(/\}$/, ',"lockV\\u0065rsion":"1"}');
    expect(await failure(readLockedServers(file('dup-version.json', text)))).toContain(
      'ambiguous lock file: its top-level key "lockVersion" appears twice',
    );
  });

  it('finds a missing item not valid JSON, as the whole-file read does', async () => {
    const f = file('hole.json', JSON.stringify(reviewed).replace('"servers":[', '"servers":[,'));
    expect(await failure(readLockedServers(f))).toContain('not valid JSON: servers[0]');
    expect(await failure(readLockFile(f))).toContain('not valid JSON');
  });
});
