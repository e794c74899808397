/**
 * A target's environment reaches the server only, never a program that runs outside the
 * containment (bwrap, setpriv, unshare, the PID-1 sh, a container engine's CLI): docs/SANDBOX.md.
 * Loader and engine variables are refused when the file is read, with the file and field named.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { findExecutable } from '../../src/launch/executables.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-wrapper-env-'));
const linux = process.platform === 'linux';
const flags = ['--probe-timeout', '500', '--timeout', '20000', '-q', '--json', '-'];

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

/** A shared library whose constructor leaves a mark naming the program that loaded it. */
function evilLibrary(): string | undefined {
  if (!findExecutable('cc')) return undefined;
  const src = write(
    'evil.c',
    `#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void) {
  char exe[512] = {0}; readlink("/proc/self/exe", exe, sizeof exe - 1);
  FILE *f = fopen(${JSON.stringify(path.join(dir, 'loaded'))}, "a"); if (f) { fprintf(f, "%s uid=%d\\n", exe, (int)getuid()); fclose(f); }
}
`,
  );
  const so = path.join(dir, 'evil.so');
  execFileSync('cc', ['-shared', '-fPIC', '-o', so, src]);
  return so;
}

describe('loader and engine variables in a list', () => {
  it.skipIf(!linux || !sandboxPrefix())(
    'are refused with the file and field, in every format; nothing loads them',
    async () => {
      const so = evilLibrary() ?? path.join(dir, 'evil.so');
      const server = { command: process.execPath, args: [FIXTURES.legacyStdio] };
      const own = write('own.json', {
        servers: [
          { name: 'preload', ...server, env: { LD_PRELOAD: so } },
          { name: 'engine', ...server, env: { DOCKER_HOST: 'tcp://127.0.0.1:1' } },
          { name: 'honest', ...server, env: { API_TOKEN: 'x' } },
        ],
      });
      const mcp = write('mcp.json', { mcpServers: { audit: { ...server, env: { LD_AUDIT: so, GCONV_PATH: dir } } } });
      const registry = write('server.json', {
        name: 'io.example/evil',
        version: '1.0.0',
        packages: [
          {
            registryType: 'npm',
            identifier: 'evil-mcp',
            version: '1.0.0',
            environmentVariables: [{ name: 'LD_PRELOAD', value: so }],
          },
        ],
      });
      const r = await idemscan([
        'scan',
        own,
        mcp,
        registry,
        '--sandbox',
        '--no-install',
        '--out',
        path.join(dir, 'out-refused'),
        ...flags,
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /skipped preload \(.*own\.json\): servers\[0\]\.env\.LD_PRELOAD: LD_PRELOAD steers the dynamic loader/,
      );
      expect(r.stderr).toMatch(/skipped engine \(.*own\.json\): servers\[1\]\.env\.DOCKER_HOST: DOCKER_HOST steers/);
      expect(r.stderr).toMatch(/skipped audit \(.*mcp\.json\): .*env\.LD_AUDIT: LD_AUDIT steers/);
      expect(r.stderr).toMatch(/server\.json.*packages\[0\]\.environmentVariables\[0\]\.name: LD_PRELOAD steers/);
      const report = Report.parse(JSON.parse(r.stdout));
      expect(report.servers.map((s) => [s.name, s.status])).toEqual([['honest', 'ok']]);
      expect(existsSync(path.join(dir, 'loaded')), 'evil.so was loaded').toBe(false);
    },
  );
});

/** Programs named like the wrappers, first on the target's PATH: each leaves a mark if it ever runs. */
function decoys(): string {
  const bin = path.join(dir, 'decoy-bin');
  mkdirSync(bin, { recursive: true });
  for (const name of ['bwrap', 'setpriv', 'unshare', 'sh', 'env', 'ip']) {
    writeFileSync(
      path.join(bin, name),
      `#!/bin/sh\necho ${name} >> ${JSON.stringify(path.join(dir, 'decoy-ran'))}\nexit 1\n`,
    );
    chmodSync(path.join(bin, name), 0o755);
  }
  return bin;
}

describe("the target's PATH", () => {
  const cases = [
    ['default mode', []],
    ['--sandbox', ['--sandbox']],
  ] as const;
  it.skipIf(!linux || !sandboxPrefix()).each(cases)(
    'chooses no wrapper (%s); the server sees exactly its own env and the defaults',
    async (mode, extra) => {
      const bin = decoys();
      const list = write(`path-${extra.length}.json`, {
        servers: [
          {
            name: 'env-echo',
            command: process.execPath,
            args: [FIXTURES.raw],
            env: {
              MODE: 'env-echo',
              PATH: `${bin}${path.delimiter}/usr/bin:/bin`,
              'ODD NAME-1': 'a b',
              SECRET_TOKEN: 'v=1;$(x)',
            },
          },
        ],
      });
      const r = await idemscan(
        ['scan', list, '--out', path.join(dir, `out-path-${extra.length}`), ...flags, ...extra],
        {
          env: { PATH: process.env.PATH, HOME: path.join(dir, 'home'), IDEMSCAN_CANARY: 'c' },
        },
      );
      expect(r.exitCode, `${mode}: ${r.stderr}`).toBe(0);
      const server = Report.parse(JSON.parse(r.stdout)).servers[0]!;
      expect(server.status, JSON.stringify(server.failure)).toBe('ok');
      expect(existsSync(path.join(dir, 'decoy-ran')) ? readFileSync(path.join(dir, 'decoy-ran'), 'utf8') : '').toBe('');
      // idemscan's defaults (HOME and PATH are set above; the others as the test runner has them), then the target's.
      const defaults = ['LOGNAME', 'SHELL', 'TERM', 'USER'].filter(
        (n) => process.env[n] !== undefined && !process.env[n]!.startsWith('()'),
      );
      const expected = [...new Set(['HOME', 'PATH', ...defaults, 'MODE', 'ODD NAME-1', 'SECRET_TOKEN'])].sort();
      expect(JSON.parse(server.tools[0]!.description!)).toEqual(expected);
    },
  );
});

/** A `docker` that answers `info`, `pull` and `image inspect`, and on `run` records what it was given, then serves. */
function fakeDocker(): { bin: string; record: string } {
  const bin = path.join(dir, 'engine-bin');
  const record = path.join(dir, 'engine-run.json');
  mkdirSync(bin, { recursive: true });
  const script = `#!${process.execPath}
const fs = require('node:fs');
const [verb, ...rest] = process.argv.slice(2);
if (verb === 'info') { console.log('{}'); process.exit(0); }
if (verb === 'pull') process.exit(0);
if (verb === 'image') { console.log(JSON.stringify(['ghcr.io/example/mcp@sha256:${'c'.repeat(64)}'])); process.exit(0); }
if (verb === 'run') {
  const at = rest.indexOf('--env-file');
  const envFile = at >= 0 ? rest[at + 1] : undefined;
  const mode = envFile ? fs.statSync(envFile).mode & 0o777 : undefined;
  fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: rest, env: process.env, envFile, mode, content: envFile && fs.readFileSync(envFile, 'utf8') }));
  import(${JSON.stringify(FIXTURES.legacyStdio)});
}
`;
  writeFileSync(path.join(bin, 'docker'), script);
  chmodSync(path.join(bin, 'docker'), 0o755);
  return { bin, record };
}

describe('an OCI target', () => {
  it.skipIf(!linux)(
    "hands its env to the container in a 0600 file, never to the engine's own environment or argv",
    async () => {
      const { bin, record } = fakeDocker();
      const list = write('oci.json', {
        servers: [
          { name: 'img', oci: 'ghcr.io/example/mcp:1.0.0', env: { API_TOKEN: 'oci-secret-7a6b5c4d', PATH: '/decoy' } },
        ],
      });
      const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: path.join(dir, 'home') };
      const cache = ['--cache-dir', path.join(dir, 'oci-cache')];
      expect((await idemscan(['install', list, ...cache], { env })).exitCode).toBe(0);
      const r = await idemscan(['scan', list, ...cache, '--out', path.join(dir, 'out-oci'), ...flags], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(Report.parse(JSON.parse(r.stdout)).servers[0]!.status).toBe('ok');
      const seen = JSON.parse(readFileSync(record, 'utf8')) as {
        argv: string[];
        env: Record<string, string>;
        envFile: string;
        mode: number;
        content: string;
      };
      expect(seen.env.API_TOKEN).toBeUndefined();
      expect(seen.env.PATH).not.toBe('/decoy');
      expect(seen.argv.join(' ')).not.toContain('oci-secret');
      expect(seen.content).toBe('API_TOKEN=oci-secret-7a6b5c4d\nPATH=/decoy\n');
      expect(seen.mode).toBe(0o600);
      expect(existsSync(seen.envFile), 'the env file outlived the scan').toBe(false);
      expect(readdirSync(os.tmpdir()).some((f) => f === path.basename(path.dirname(seen.envFile)))).toBe(false);
    },
  );
});
