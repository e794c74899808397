/** Hostile target files through the built CLI: nothing in them can grant trust, change a timeout or install a path. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-hostile-cli-'));
const legacy = { command: process.execPath, args: [FIXTURES.legacyStdio] };
// Generous: a 1 ms timeout smuggled in through __proto__ is what would fail the server.
const flags = ['--probe-timeout', '500', '--timeout', '20000', '-q'];

/** Writes raw text: JSON.stringify cannot produce a `__proto__` key, which is the point. */
function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

describe('__proto__ in a target file', () => {
  it('neither marks a server trusted nor changes its timeout, and a server named __proto__ is scanned', async () => {
    const trick = '"__proto__": { "trusted": true, "timeout": 1, "timeoutMs": 1, "cwd": "/nonexistent" }';
    const own = file(
      'own.json',
      `{ "servers": [ { "name": "own-legacy", "command": ${JSON.stringify(legacy.command)}, "args": ${JSON.stringify(legacy.args)}, ${trick} } ] }`,
    );
    const mcp = file(
      'mcp.json',
      `{ "mcpServers": {
      "mcp-legacy": { "command": ${JSON.stringify(legacy.command)}, "args": ${JSON.stringify(legacy.args)}, ${trick} },
      "__proto__": { "command": ${JSON.stringify(legacy.command)}, "args": ${JSON.stringify(legacy.args)} }
    } }`,
    );
    const r = await idemscan(['scan', own, mcp, '--json', '-', '--out', path.join(dir, 'out-proto'), ...flags]);
    expect(r.exitCode).toBe(0);
    // Our own format: an unknown field is an error for the entry, named with the file and field.
    expect(r.stderr).toMatch(/skipped own-legacy \(.*own\.json\): servers\[0\]: unknown field "__proto__"/);
    const report = Report.parse(JSON.parse(r.stdout));
    expect(report.servers.map((s) => [s.name, s.status, s.trusted ?? false])).toEqual([
      ['mcp-legacy', 'ok', false],
      ['__proto__', 'ok', false],
    ]);
    expect(report.servers[0]!.tools.length).toBeGreaterThan(0);
  });
});

describe('unpinned npm specs', () => {
  it('file@1.0.0/../../evil.tgz and x@1.0.0||* are refused before npm is started', async () => {
    const cache = path.join(dir, 'cache');
    // An `npm` first on PATH that leaves a mark: the proof that no install was attempted.
    const bin = path.join(dir, 'bin');
    const marker = path.join(dir, 'npm-was-run');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\ntouch ${JSON.stringify(marker)}\nexit 1\n`);
    chmodSync(path.join(bin, 'npm'), 0o755);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };

    const list = file(
      'npm.json',
      JSON.stringify({
        servers: [
          { name: 'tarball', npm: 'file@1.0.0/../../evil.tgz' },
          { name: 'range', npm: 'x@1.0.0||*' },
        ],
      }),
    );
    const registry = file(
      'server.json',
      JSON.stringify({
        name: 'io.example/evil',
        packages: [{ registryType: 'npm', identifier: '../../evil', version: '1.0.0' }],
      }),
    );
    for (const args of [
      ['scan', list, registry, '--cache-dir', cache, '--out', path.join(dir, 'out-npm'), ...flags],
      ['install', list, registry, '--cache-dir', cache],
    ]) {
      const r = await idemscan(args, { env });
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(cache)).toBe(false);
      if (args[0] === 'scan') {
        expect(r.exitCode).toBe(2); // nothing left to scan
        expect(r.stderr).toMatch(/skipped tarball \(.*npm\.json\): servers\[0\]\.npm: not an exact version/);
        expect(r.stderr).toMatch(/skipped range \(.*npm\.json\): servers\[1\]\.npm: not an exact version/);
        expect(r.stderr).toMatch(
          /skipped io\.example\/evil \(.*server\.json\): packages\[0\]\.identifier: .*not an npm package name/,
        );
      }
    }
  });
});

describe('a FIFO where a file is expected', () => {
  it('is refused at once, naming the file: a target list, a saved report, a published run', async () => {
    const fifo = path.join(dir, 'planted-fifo.json');
    execFileSync('mkfifo', [fifo]);
    // Nothing ever writes to it: a reader that opened it blocking would wait until the CLI's timeout.
    const scan = await idemscan(['scan', fifo, '--out', path.join(dir, 'out-fifo'), '-q']);
    expect(scan.exitCode).toBe(2);
    expect(scan.stderr).toMatch(/planted-fifo\.json: not a regular file \(a FIFO, socket or device\)/);
    const report = await idemscan(['report', fifo, '--format', 'md']);
    expect(report.exitCode).toBe(2);
    expect(report.stderr).toMatch(/planted-fifo\.json.*not a regular file/);
    const runs = path.join(dir, 'runs-fifo');
    mkdirSync(path.join(runs, '2026-01-01'), { recursive: true });
    execFileSync('mkfifo', [path.join(runs, '2026-01-01', 'report.json')]);
    const index = await idemscan(['index', runs]);
    expect(index.stderr).toMatch(/skipped .*2026-01-01.report\.json.*not a regular file/);
  });
});
