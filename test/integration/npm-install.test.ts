/** Pinned npm targets for real: install two reference servers from the registry, then scan them offline. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { installPackages } from '../../src/launch/npm.js';
import { isInstalled } from '../../src/launch/npm-cache.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { idemscan } from '../helpers/cli.js';

it(
  'installs pinned packages once into the cache and launches their bin with node, no npx',
  { timeout: 240_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npm-'));
    const cache = path.join(dir, 'cache');
    const file = path.join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: [
          { name: 'sequential-thinking', npm: '@modelcontextprotocol/server-sequential-thinking@2026.8.31' },
          {
            name: 'memory',
            npm: '@modelcontextprotocol/server-memory@2026.8.31',
            env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
          },
        ],
      }),
    );

    const install = await idemscan(['install', file, '--cache-dir', cache]);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/2\/2 packages/);
    const again = await idemscan(['install', file, '--cache-dir', cache]);
    expect(again.stdout.match(/\(cached\)/g)).toHaveLength(2);

    // --no-install: the scan itself needs no registry; --sandbox where this machine allows it.
    const sandbox = sandboxPrefix() ? ['--sandbox'] : [];
    const scan = await idemscan([
      'scan',
      file,
      '--cache-dir',
      cache,
      '--no-install',
      ...sandbox,
      '--json',
      '-',
      '--out',
      dir,
    ]);
    expect(scan.exitCode, scan.stderr).toBe(0);
    const report = Report.parse(JSON.parse(scan.stdout));
    for (const s of report.servers) {
      expect(s.status, JSON.stringify(s.failure)).toBe('ok');
      expect(s.tools.length).toBeGreaterThan(0);
      expect(s.target.npm).toMatch(/@2026\.8\.31$/);
      expect(s.target.resolved).toContain(path.join(cache, 'npm'));
      expect(s.target.resolved).not.toMatch(/\bnpx\b/);
    }
    expect(report.manifest?.packages).toHaveLength(2);
    expect(report.options.sandbox).toBe(sandbox.length > 0);
  },
);

it('does not take a failed or timed-out install for installed (npm can leave the package.json behind)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-npm-fail-'));
  // An `npm` first on PATH that writes the package's package.json, then fails, as a timeout can.
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, 'npm'),
    '#!/bin/sh\nmkdir -p node_modules/half-written\necho "{}" > node_modules/half-written/package.json\nexit 1\n',
    { mode: 0o755 },
  );
  const saved = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${saved ?? ''}`;
  try {
    const cache = path.join(dir, 'cache');
    const [result] = await installPackages(['half-written@1.0.0'], cache, 1);
    expect(result!.ok).toBe(false);
    expect(isInstalled(cache, 'half-written@1.0.0')).toBe(false);
  } finally {
    process.env.PATH = saved;
  }
});
