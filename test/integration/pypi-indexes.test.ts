/**
 * One name and version from two PEP 503 indexes (issue 26, item 3, for PyPI): another index is
 * another package, so each entry gets its own spec, install and cache entry, and `honest` never
 * runs what `other-index` serves under the same name (before, the last entry's index was installed
 * for both). Real pip, file:// indexes; two venvs, as pypi.test.ts makes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { pypiIndex } from '../helpers/pypi-index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pypi-indexes-'));
const cache = path.join(dir, 'cache');
const file = path.join(dir, 'targets.json');
const index = { honest: '', other: '' };
const tag = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 16);
const spec = (url: string) => `pypi:idem-py-echo==1.0.0 index:${tag(url)}`;
const entry = (url: string) => path.join(cache, 'pypi', `idem-py-echo@1.0.0@index-${tag(url)}`);

beforeAll(() => {
  index.honest = pypiIndex(path.join(dir, 'honest'), [{ name: 'idem-py-echo', version: '1.0.0' }]);
  // Other bytes under the same name and version: a second console script tells them apart.
  const scripts = { 'idem-py-echo': 'py_echo_server:main', 'other-marker': 'py_echo_server:main' };
  index.other = pypiIndex(path.join(dir, 'other'), [{ name: 'idem-py-echo', version: '1.0.0', scripts }]);
  const servers = [
    { name: 'honest', pypi: 'idem-py-echo==1.0.0', index: index.honest },
    { name: 'other-index', pypi: 'idem-py-echo==1.0.0', index: index.other },
  ];
  writeFileSync(file, JSON.stringify({ servers }));
});

it('installs each index apart and runs each entry from its own', { timeout: 180_000 }, async () => {
  const install = await idemscan(['install', file, '--cache-dir', cache]);
  expect(install.exitCode, install.stderr).toBe(0);
  const scan = await idemscan(['scan', file, '--cache-dir', cache, '--no-install', '--json', '-', '--out', dir]);
  const report = Report.parse(JSON.parse(scan.stdout));
  const s = (name: string) => report.servers.find((x) => x.name === name)!;
  const bin = (name: string) => path.dirname(s(name).target.resolved!);
  for (const name of ['honest', 'other-index']) expect(s(name).status, JSON.stringify(s(name).failure)).toBe('ok');
  // The honest entry runs the honest index's package, not the other's (which has a second script).
  expect(existsSync(path.join(bin('honest'), 'other-marker'))).toBe(false);
  expect(existsSync(path.join(bin('other-index'), 'other-marker'))).toBe(true);

  expect(bin('honest')).toBe(path.join(entry(index.honest), 'venv', 'bin'));
  expect(bin('other-index')).toBe(path.join(entry(index.other), 'venv', 'bin'));
  expect(readdirSync(path.join(cache, 'pypi')).sort()).toEqual(
    [entry(index.honest), entry(index.other)].map((e) => path.basename(e)).sort(),
  );
  expect(install.stdout).toContain(`ok     ${spec(index.honest)} (`);
  expect(install.stdout).toContain(`ok     ${spec(index.other)} (`);
  expect(report.manifest?.packages).toEqual([spec(index.honest), spec(index.other)].sort());
});

it("an older cache entry under PyPI's name that another index filled is not taken for installed", async () => {
  // What an idemscan that keyed PyPI installs by name and version alone could leave: the entry of
  // `idem-py-echo==1.0.0` from PyPI, filled from another index.
  const old = mkdtempSync(path.join(dir, 'old-cache-'));
  const entryDir = path.join(old, 'pypi', 'idem-py-echo@1.0.0');
  mkdirSync(path.join(entryDir, 'venv', 'bin'), { recursive: true });
  writeFileSync(path.join(entryDir, '.idemscan-installed'), `idem-py-echo==1.0.0 from ${index.other}\n`);
  const list = path.join(dir, 'from-pypi.json');
  writeFileSync(list, JSON.stringify({ servers: [{ name: 'from-pypi', pypi: 'idem-py-echo==1.0.0' }] }));
  const scan = await idemscan(['scan', list, '--cache-dir', old, '--no-install', '--json', '-', '--out', dir]);
  const [s] = Report.parse(JSON.parse(scan.stdout)).servers;
  expect(s!.failure?.message).toMatch(/^pypi:idem-py-echo==1\.0\.0 is not installed: run `idemscan install /);
});
