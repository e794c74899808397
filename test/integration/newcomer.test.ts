/**
 * What a new user sees through the built CLI (issue 20's minors): which sandbox ran, the stderr
 * line that says why a server failed, a fetch "bad port" in words (and none in the bundled lists),
 * a mistyped flag without the whole help, and --fail-on checked before any list is read.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-newcomer-'));
const fast = ['--probe-timeout', '500', '--timeout', '15000'];
const root = process.getuid?.() === 0;
const audit = (args: string[]) => idemscan(['audit', '--out', path.join(dir, 'out'), ...fast, ...args]);

describe('which sandbox ran, in one line after the scan', () => {
  it('without --sandbox: none, and as root that the PID namespace is no sandbox', async () => {
    const r = await audit(['--', process.execPath, FIXTURES.legacyStdio]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'idemscan: sandbox for 1 stdio server: none (they ran with your rights, files and network included; --sandbox contains them)',
    );
    expect(
      r.stderr.includes('running as root without --sandbox: the PID namespace each server runs in is not a sandbox'),
    ).toBe(root);
  });

  it.skipIf(sandboxPrefix()?.[0] !== 'bwrap')(
    'under --sandbox: bubblewrap, and as root that it is the only protection',
    async () => {
      const r = await audit(['--sandbox', '--', process.execPath, FIXTURES.legacyStdio]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'idemscan: sandbox for 1 stdio server: bubblewrap (no network, no home directories, read-only system)',
      );
      expect(
        r.stderr.includes(
          'idemscan: running as root: the sandbox is the only protection between the servers and this machine',
        ),
      ).toBe(root);
    },
  );
});

it("a server that cannot start: the stderr line that says why, not Node's version footer", async () => {
  const r = await audit(['--', process.execPath, path.join(dir, 'no-such-server.js')]);
  expect(r.exitCode).toBe(3);
  expect(r.stdout + r.stderr).toContain(`stderr: Error: Cannot find module '${path.join(dir, 'no-such-server.js')}'`);
  expect(r.stdout + r.stderr).not.toContain('stderr: Node.js v');
});

describe('fetch\'s "bad port"', () => {
  it('says what it is and what to do', async () => {
    const r = await audit(['http://127.0.0.1:9/mcp']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout + r.stderr).toContain(
      'unreachable: cannot reach the server at 127.0.0.1:9: port 9 is blocked by fetch (a "bad port"): use another',
    );
  });

  it('no bundled list points at a port fetch blocks: each loopback port is refused, not blocked', async () => {
    const files = ['targets', 'targets/fake'].flatMap((d) =>
      readdirSync(d)
        .filter((f) => /\.(?:json|ya?ml)$/.test(f))
        .map((f) => path.join(d, f)),
    );
    const ports = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/127\.0\.0\.1:(\d+)/g)) ports.add(m[1]!);
    expect(ports.size).toBeGreaterThan(0);
    for (const port of ports) {
      const cause = await fetch(`http://127.0.0.1:${port}/`).then(
        () => 'answered',
        (e: { cause?: { code?: string; message?: string } }) => e.cause?.code ?? e.cause?.message,
      );
      expect(cause, `127.0.0.1:${port}`).not.toBe('bad port');
    }
  });
});

describe('usage errors', () => {
  it('a mistyped flag: the error, the suggestion and where the help is, not the whole help', async () => {
    const r = await idemscan(['scan', '--timout', '5']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')).toEqual([
      "error: unknown option '--timout'",
      '(Did you mean --timeout?)',
      // The command as it was run: node and main.js, relative to the working directory (the repository).
      `see: node ${path.relative(process.cwd(), CLI)} scan --help`,
    ]);
    const top = await idemscan(['scna']);
    expect(top.stderr.split('\n')).toEqual([
      "error: unknown command 'scna'",
      '(Did you mean scan?)',
      `see: node ${path.relative(process.cwd(), CLI)} --help`,
    ]);
  });

  it('--fail-on is checked before the default list is read', async () => {
    const r = await idemscan(['scan', '--out', path.join(dir, 'out-f'), '--fail-on', 'unprotectd']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('skipped');
    expect(r.stderr).toMatch(/^idemscan: --fail-on: unknown "unprotectd"; did you mean "unprotected"\?/);
    const file = path.join(dir, 'missing.json');
    const missing = await idemscan(['scan', file, '--fail-on', 'bogus']);
    expect(missing.stderr).toContain('--fail-on: unknown "bogus"');
  });
});
