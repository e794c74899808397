/**
 * What idemscan writes and prints cannot be turned against the user: planted symlinks, bad output
 * paths, a closed pipe, many servers at once, and servers that answer with megabytes of text.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { FIXTURES } from '../fixtures/index.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { startHostileHttp, type RunningServer } from '../helpers/hostile-http.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-outputs-'));
const fast = ['--probe-timeout', '500', '--timeout', '10000'];
const modern = { name: 'modern', command: process.execPath, args: [FIXTURES.modernStdio] };

function list(name: string, servers: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

/** A fixture log: every fixture process appends a line, so an empty log means nothing was started. */
function spawnLog(name: string): { env: Record<string, string>; spawned: () => string } {
  const file = path.join(dir, name);
  writeFileSync(file, '');
  return { env: { IDEMSCAN_FIXTURE_LOG: file }, spawned: () => readFileSync(file, 'utf8') };
}

describe('report files', () => {
  it('replace a symlink planted at output/report.json instead of writing through it', async () => {
    const out = path.join(dir, 'planted');
    mkdirSync(out);
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, path.join(out, 'report.json'));
    const r = await idemscan(['scan', list('one.json', [modern]), '--out', out, '--quiet', ...fast]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    const written = path.join(out, 'report.json');
    expect(lstatSync(written).isFile()).toBe(true);
    expect(lstatSync(written).mode & 0o777).toBe(0o644 & ~process.umask()); // not a temp file's 0600
    expect(Report.parse(JSON.parse(readFileSync(written, 'utf8'))).summary.serversOk).toBe(1);
  });

  it('report and merge replace planted symlinks too', async () => {
    const out = path.join(dir, 'planted-2');
    mkdirSync(out);
    const saved = path.join(dir, 'planted', 'report.json'); // written by the test above
    const victim = path.join(dir, 'victim-2.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, path.join(out, 'report.md'));
    symlinkSync(victim, path.join(out, 'merged.json'));
    expect((await idemscan(['report', saved, '--format', 'md', '--out', out])).exitCode).toBe(0);
    expect((await idemscan(['merge', saved, '--json', path.join(out, 'merged.json'), '--quiet'])).exitCode).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path.join(out, 'report.md')).isFile()).toBe(true);
    expect(Report.parse(JSON.parse(readFileSync(path.join(out, 'merged.json'), 'utf8'))).summary.serversOk).toBe(1);
  });

  it('--out naming a file is a usage error before anything is scanned', async () => {
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const log = spawnLog('out-file.log');
    const r = await idemscan(['scan', list('one-b.json', [modern]), '--out', file, ...fast], { env: log.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--out');
    expect(r.stderr).toContain(file);
    expect(log.spawned()).toBe('');
  });

  it('--json to a path that cannot be written is a usage error before anything is scanned', async () => {
    const file = path.join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const target = path.join(file, 'report.json'); // a path under a file: ENOTDIR, even for root
    const log = spawnLog('json-bad.log');
    const r = await idemscan(
      ['scan', list('one-c.json', [modern]), '--json', target, '--out', path.join(dir, 'o-json'), ...fast],
      { env: log.env },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--json');
    expect(r.stderr).toContain(target);
    expect(log.spawned()).toBe('');
  });

  it('a write that fails after the scan keeps the report in a fallback file and exits non-zero', async () => {
    const out = path.join(dir, 'sabotaged');
    // The server replaces the (already checked) output directory with a file while it is scanned.
    const saboteur = {
      name: 'saboteur',
      command: 'sh',
      args: ['-c', `rm -rf "$OUT" && echo x > "$OUT" && exec "${process.execPath}" "${FIXTURES.modernStdio}"`],
      env: { OUT: out },
    };
    const r = await idemscan(['scan', list('sabotage.json', [saboteur]), '--out', out, '--quiet', ...fast]);
    expect(r.exitCode).not.toBe(0);
    const saved = /saved in (\S+)/.exec(r.stderr)?.[1];
    expect(saved, r.stderr).toBeDefined();
    expect(Report.parse(JSON.parse(readFileSync(saved!, 'utf8'))).summary.serversOk).toBe(1);
  });
});

describe('terminal', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHostileHttp({ MODE: 'tools', TOOLS: '4000' });
  });
  afterAll(() => server.close());

  it("a reader that goes away (| head -1) ends the CLI quietly with the scan's own exit code", async () => {
    const child = spawn(process.execPath, [CLI, 'audit', server.url, '--out', path.join(dir, 'o-epipe'), ...fast], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    let seen = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      seen += c;
      if (seen.includes('\n')) child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(seen).toContain('hostile-http-tools');
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });

  it('scanning more than ten servers at once prints no MaxListenersExceededWarning', async () => {
    const servers = Array.from({ length: 12 }, (_, i) => ({ name: `http-${i}`, url: server.url }));
    const r = await idemscan([
      'scan',
      list('twelve.json', servers),
      '--concurrency',
      '12',
      '--out',
      path.join(dir, 'o-12'),
      '--quiet',
      ...fast,
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
  });
});

describe('bounded server text', () => {
  it('an HTTP error body of 2 MB reaches the report as a short excerpt', async () => {
    const s = await startHostileHttp({ MODE: 'error-body' });
    try {
      const r = await idemscan(['audit', s.url, '--json', '-', '--quiet', ...fast]);
      const report = Report.parse(JSON.parse(r.stdout));
      const failure = report.servers[0]!.failure!;
      expect(failure.message).toContain('HTTP 500');
      expect(failure.message.length).toBeLessThan(3_000);
      expect(r.stdout.length).toBeLessThan(50_000);
    } finally {
      await s.close();
    }
  });

  it('a negotiation note quoting 200,000 offered versions is bounded', async () => {
    const s = await startHostileHttp({ MODE: 'notes' });
    try {
      const r = await idemscan(['audit', s.url, '--json', '-', '--quiet', ...fast]);
      const report = Report.parse(JSON.parse(r.stdout));
      const server = report.servers[0]!;
      expect(server.status).toBe('ok');
      expect(server.protocol?.negotiation).toContain('server/discover offered no modern version');
      expect(server.protocol!.negotiation!.length).toBeLessThan(20 * 310);
      expect(r.stdout.length).toBeLessThan(50_000);
    } finally {
      await s.close();
    }
  });
});
