/** Progress on stderr: plain lines off a terminal, a redrawn status line on one (isTTY injected). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bar, InstallProgress, ScanProgress, type Terminal } from '../../src/cli/progress.js';
import { unscannedText } from '../../src/app/interrupt.js';
import type { ServerReport } from '../../src/model/schema.js';
import { installPackages, type InstallResult } from '../../src/launch/npm.js';
import { packageDir } from '../../src/launch/npm-cache.js';

function terminal(isTTY: boolean): Terminal & { text: string } {
  const t = { text: '', isTTY, columns: 60, write: (s: string) => (t.text += s) };
  return t;
}

const server = (name: string, status: 'ok' | 'failed', durationMs = 1200): ServerReport => ({
  name,
  status,
  target: { transport: 'stdio' },
  idempotencyCapability: false,
  durationMs,
  tools: [],
  findings: [],
  ...(status === 'failed' ? { failure: { kind: 'timeout' as const, message: 'no answer' } } : {}),
});

function scanOf(isTTY: boolean, quiet = false) {
  const err = terminal(isTTY);
  let now = 0;
  const p = new ScanProgress(err, quiet, () => now);
  const tick = (ms: number) => (now += ms);
  return { err, p, tick };
}

describe('scan progress', () => {
  it('off a terminal: a plain line per server as it finishes, nothing redrawn', () => {
    const { err, p, tick } = scanOf(false);
    p.onEvent({ type: 'start', target: 'alpha', index: 0, total: 2 });
    p.onEvent({ type: 'start', target: 'beta\u001b[2J', index: 1, total: 2 });
    tick(1500);
    p.onEvent({ type: 'done', server: server('beta\u001b[2J', 'failed', 1500), index: 0, total: 2, target: 1 });
    p.onEvent({ type: 'done', server: server('alpha', 'ok'), index: 1, total: 2, target: 0 });
    p.stop();
    expect(err.text).toBe('[1/2] failed beta\\u001b[2J (1.5 s): timeout\n[2/2] ok alpha (1.2 s, 0 tools)\n');
  });

  it('off a terminal: every 30 s a plain line names the servers still running, and none once all are done', () => {
    vi.useFakeTimers();
    try {
      const { err, p, tick } = scanOf(false);
      p.onEvent({ type: 'start', target: 'alpha', index: 0, total: 2 });
      p.onEvent({ type: 'start', target: 'hangs', index: 1, total: 2 });
      tick(1000);
      p.onEvent({ type: 'done', server: server('alpha', 'ok'), index: 0, total: 2, target: 0 });
      tick(29_000);
      vi.advanceTimersByTime(30_000);
      expect(err.text).toBe('[1/2] ok alpha (1.2 s, 0 tools)\n1/2 scanned; running: hangs 30.0 s\n');
      p.onEvent({ type: 'done', server: server('hangs', 'failed', 45_000), index: 1, total: 2, target: 1 });
      vi.advanceTimersByTime(60_000);
      p.stop();
      expect(err.text.split('\n').filter((l) => l.includes('running:'))).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a terminal: a status line with the running servers and how long, redrawn in place', () => {
    const { err, p, tick } = scanOf(true);
    p.onEvent({ type: 'start', target: 'alpha', index: 0, total: 3 });
    tick(2000);
    p.onEvent({ type: 'start', target: 'beta', index: 1, total: 3 });
    tick(1000);
    p.onEvent({ type: 'done', server: server('beta', 'ok'), index: 0, total: 3, target: 1 });
    expect(err.text).toContain('[1/3] ok beta');
    expect(err.text.endsWith('\r\x1b[K1/3 scanned; running: alpha 3.0 s')).toBe(true);
    p.stop();
    expect(err.text.endsWith('\r\x1b[K')).toBe(true); // the status line is gone before the table
  });

  it('with -q: nothing but warnings', () => {
    const { err, p } = scanOf(true, true);
    p.onEvent({ type: 'start', target: 'alpha', index: 0, total: 1 });
    p.onEvent({ type: 'done', server: server('alpha', 'ok'), index: 0, total: 1, target: 0 });
    p.onEvent({ type: 'warning', message: 'no bubblewrap' });
    p.stop();
    expect(err.text).toBe('idemscan: no bubblewrap\n');
  });

  it('names the servers not scanned after Ctrl-C: stopped ones with their time, the rest not started', () => {
    const { p, tick } = scanOf(false);
    const targets = ['a', 'b', 'c', 'd'].map((name) => ({ name }));
    p.onEvent({ type: 'start', target: 'a', index: 0, total: 4 });
    p.onEvent({ type: 'start', target: 'b', index: 1, total: 4 });
    p.onEvent({ type: 'done', server: server('a', 'ok'), index: 0, total: 4, target: 0 });
    p.onEvent({ type: 'start', target: 'c', index: 2, total: 4 });
    tick(3100);
    const unscanned = p.unscanned(targets);
    expect(unscannedText(unscanned, 4)?.text).toBe(
      'not scanned (3 of 4): b (stopped after 3.1 s), c (stopped after 3.1 s), d (not started)',
    );
    expect(unscannedText([], 4)).toBeUndefined();
    const many = Array.from({ length: 14 }, (_, i) => ({ name: `s${i}` }));
    expect(unscannedText(many, 14)?.text).toMatch(/s9 \(not started\), and 4 more$/);
  });
});

describe('install progress', () => {
  const result = (spec: string, ok = true): InstallResult => ({ spec, ok, ms: 2_000 });

  it('a line per package as it finishes, and on a terminal a bar with counts', () => {
    const lines = terminal(true);
    const err = terminal(true);
    const p = new InstallProgress(3, lines, err);
    p.onInstalled(result('a@1.0.0'));
    p.onInstalled(result('b@1.0.0', false));
    expect(lines.text).toBe('ok     a@1.0.0 (2.0 s)\nFAILED b@1.0.0 (2.0 s)\n');
    expect(err.text).toContain(`\r\x1b[K${bar(2, 3)} 2/3 installed, 1 failed`);
    p.stop();
  });

  it('off a terminal: the lines only', () => {
    const lines = terminal(false);
    const err = terminal(false);
    const p = new InstallProgress(1, lines, err);
    p.onInstalled(result('a@1.0.0'));
    p.stop();
    expect(err.text).toBe('');
    expect(lines.text).toBe('ok     a@1.0.0 (2.0 s)\n');
  });

  it('installPackages tells of each package as it finishes', async () => {
    const cache = mkdtempSync(path.join(os.tmpdir(), 'idemscan-progress-'));
    const specs = ['a-pkg@1.0.0', '@s/b-pkg@2.0.0'];
    for (const spec of specs) {
      const name = spec.slice(0, spec.lastIndexOf('@'));
      const dir = path.join(packageDir(cache, spec), 'node_modules', name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), '{}');
    }
    const heard: string[] = [];
    await installPackages(specs, cache, 2, new Map(), undefined, (r) => heard.push(r.spec));
    expect(heard.sort()).toEqual([...specs].sort());
  });
});
