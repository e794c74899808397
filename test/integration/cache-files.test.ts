/**
 * The files of idemscan's cache are read like any other file (src/io/read.ts): only idemscan writes
 * them, but a server run without --sandbox can replace one. Each case plants a FIFO where a scan
 * reads a cache file (the era memo, a token record, an installed package's package.json and bin, a
 * bundle's manifest, a venv's entry points and pyvenv.cfg): the scan is not left waiting for a
 * writer that never comes, and says what it could not read. The built CLI, a real FIFO each.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';

const SHA = 'a'.repeat(64);

/** A fresh cache dir with a FIFO at each of `fifos` (paths inside it) and `files` written. */
function cache(fifos: string[], files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-cache-files-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  for (const rel of fifos) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    execFileSync('mkfifo', [path.join(dir, rel)]);
  }
  return dir;
}

/** `scan` of `servers` with `--cache-dir dir`; killed after 30 s (a scan here takes about one). */
async function scan(dir: string, servers: unknown[]) {
  const file = path.join(dir, 'targets.json');
  writeFileSync(file, JSON.stringify({ servers }));
  const run = await execa(process.execPath, [CLI, 'scan', file, '--cache-dir', dir, '--json', '-', '-q'], {
    reject: false,
    timeout: 30_000,
    cwd: dir,
    // The default cache dir (also read for stored tokens) is an empty one of this test's.
    env: { IDEMSCAN_CACHE: mkdtempSync(path.join(os.tmpdir(), 'idemscan-default-cache-')) },
  });
  expect(run.timedOut, 'the scan waited on a FIFO').toBe(false);
  const report = Report.parse(JSON.parse(run.stdout));
  return (name: string) => report.servers.find((s) => s.name === name)!;
}

const stdio = { name: 's', command: process.execPath, args: [FIXTURES.rules], env: { SET: 'clean' } };
const venv = (name: string) => `pypi/${name}@1.0/venv`;
const site = (name: string) => `${venv(name)}/lib/python3.12/site-packages/${name.replace('-', '_')}-1.0.dist-info`;
const installed = (name: string) => ({
  [`pypi/${name}@1.0/.idemscan-installed`]: `${name}==1.0 from https://pypi.org/simple\n`,
});
const NOT_A_FILE = 'not a regular file (a FIFO, socket or device); not read';

/** What a scan reads from the cache, a FIFO there, the rest of the entry, the server and what its report says. */
const CASES: [string, string, Record<string, string>, Record<string, unknown>, (dir: string) => string | undefined][] =
  [
    ['the era memo', 'eras.json', {}, stdio, () => undefined],
    ['a token record', 'oauth/planted.json', {}, stdio, () => undefined],
    [
      "an npm package's package.json",
      'npm/fifo-json@1.0.0/node_modules/fifo-json/package.json',
      {},
      { name: 's', npm: 'fifo-json@1.0.0' },
      () => `fifo-json@1.0.0: its package.json: ${NOT_A_FILE}`,
    ],
    [
      // No first line read, so not started with node: the FIFO itself cannot be executed.
      "an npm package's bin",
      'npm/fifo-bin@1.0.0/node_modules/fifo-bin/srv',
      { 'npm/fifo-bin@1.0.0/node_modules/fifo-bin/package.json': JSON.stringify({ name: 'fifo-bin', bin: 'srv' }) },
      { name: 's', npm: 'fifo-bin@1.0.0' },
      (dir) => `cannot start "${path.join(dir, 'npm/fifo-bin@1.0.0/node_modules/fifo-bin/srv')}"`,
    ],
    [
      "a bundle's manifest.json",
      `mcpb/${SHA}/manifest.json`,
      {},
      { name: 's', mcpb: 'http://127.0.0.1:9/never-fetched.mcpb', sha256: SHA },
      () => `manifest.json: ${NOT_A_FILE}`,
    ],
    [
      "a venv's entry_points.txt",
      `${site('fifo-entry')}/entry_points.txt`,
      installed('fifo-entry'),
      { name: 's', pypi: 'fifo-entry==1.0' },
      () => 'fifo-entry==1.0 has no console script named like the package (has: none)',
    ],
    [
      "a venv's pyvenv.cfg",
      `${venv('fifo-cfg')}/pyvenv.cfg`,
      {
        ...installed('fifo-cfg'),
        [`${site('fifo-cfg')}/entry_points.txt`]: '[console_scripts]\nfifo-cfg = fifo_cfg:main\n',
      },
      { name: 's', pypi: 'fifo-cfg==1.0' },
      (dir) => `${path.join(dir, venv('fifo-cfg'))} has no pyvenv.cfg`,
    ],
  ];

it.each(CASES)(
  'a FIFO at %s: the scan is not left waiting, and says what it could not use',
  async (_what, fifo, files, server, says) => {
    const dir = cache([fifo], files);
    const got = (await scan(dir, [server]))('s');
    const words = says(dir);
    if (words === undefined) expect(got.status, JSON.stringify(got.failure)).toBe('ok');
    else expect(got.failure?.message).toContain(words);
  },
);
