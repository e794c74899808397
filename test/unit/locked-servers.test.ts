/** `--baseline`'s lock, read a server at a time: the same checks and words as the whole-file read. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readLockedServers, readLockFile } from '../../src/compare/lock.js';

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

it('reads a file whose servers key is written with escapes whole, with the same result', async () => {
  const text = JSON.stringify(lock([{ name: 'a', status: 'ok', tools: [tool] }])).replace(
    '"servers"',
    '"serv\\u0065rs"',
  );
  const got = await readLockedServers(file('escaped.json', text));
  expect([...got.servers.keys()]).toEqual(['a']);
});
