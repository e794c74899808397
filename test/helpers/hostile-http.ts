/** Starts test/fixtures/servers/hostile-http.mjs and resolves with its URL once it listens. */
import { spawn } from 'node:child_process';
import { FIXTURES } from '../fixtures/index.js';

export interface RunningServer {
  url: string;
  /** Every `HIT <method> <path>` line so far: the requests it received. */
  hits(): string[];
  close(): Promise<void>;
}

export function startHostileHttp(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, [FIXTURES.hostileHttp], {
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
      () => void close().then(() => reject(new Error('hostile-http did not listen within 10 s'))),
      10_000,
    );
    child.once('exit', (code) => reject(new Error(`hostile-http exited early (${code})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      resolve({ url: m[1], hits: () => out.split('\n').filter((l) => l.startsWith('HIT ')), close });
    });
  });
}
