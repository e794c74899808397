/**
 * What the CLI benches share: a fixture that prints `LISTENING <url>` started as its own process,
 * and the built CLI run under GNU time (`/usr/bin/time -v`) for its wall time and peak RSS.
 * IDEMSCAN_CLI=/path/to/dist/cli/main.js measures another build (the code before a change, say).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = process.env.IDEMSCAN_CLI ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** Starts `file` with `env`; resolves with the URL it listens on. Its later stdout (HIT lines) is drained. */
export function listen(file: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (out.includes('\n')) return;
      out += chunk;
      const m = /^LISTENING (\S+)$/m.exec(out);
      if (m?.[1]) resolve({ url: m[1], child });
    });
  });
}

export interface Timed {
  seconds: number;
  rssMiB: number;
  code: number | null;
  stderr: string;
}

/** The CLI with `args`, stdout discarded (a terminal table of 10,000 rows is not what is measured). */
export function timedCli(args: string[]): Timed {
  const t0 = performance.now();
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, CLI, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - t0) / 1000;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN);
  return { seconds, rssMiB: rssKb / 1024, code: run.status, stderr: run.stderr };
}
