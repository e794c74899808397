/** Starts a fixture HTTP server (hostile-http.mjs, the fixture registry, ...) and resolves with its URL once it listens. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { FIXTURES } from '../fixtures/index.js';

export interface RunningServer {
  url: string;
  /** Every `HIT <method> <path>` line so far: the requests it received. */
  hits(): string[];
  close(): Promise<void>;
}

/**
 * Spawns `script`, which prints `LISTENING <url>` (matched by `listening`) and a `HIT ...` line per
 * request; `hit` turns such a line into what `hits()` returns.
 */
export function startListening(
  script: string,
  env: Record<string, string>,
  listening: RegExp,
  hit: (line: string) => string = (line) => line,
): Promise<RunningServer> {
  const name = path.basename(script, '.mjs');
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => void close().then(() => reject(new Error(`${name} did not listen within 10 s`))),
      10_000,
    );
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = listening.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      const hits = () =>
        out
          .split('\n')
          .filter((l) => l.startsWith('HIT '))
          .map(hit);
      resolve({ url: m[1], hits, close });
    });
  });
}

export function startHostileHttp(env: Record<string, string>): Promise<RunningServer> {
  return startListening(FIXTURES.hostileHttp, env, /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m);
}
