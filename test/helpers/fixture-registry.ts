/** Starts test/fixtures/registry-server.mjs (a fixture MCP Registry on 127.0.0.1) and resolves once it listens. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REGISTRY_FIXTURE = fileURLToPath(new URL('../fixtures/registry-server.mjs', import.meta.url));

export interface FixtureRegistry {
  url: string;
  /** Every request's path and query so far, in order. */
  hits(): string[];
  close(): Promise<void>;
}

export function startFixtureRegistry(env: Record<string, string>): Promise<FixtureRegistry> {
  const child = spawn(process.execPath, [REGISTRY_FIXTURE], {
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
      () => void close().then(() => reject(new Error('registry-server did not listen within 10 s'))),
      10_000,
    );
    child.once('exit', (code) => reject(new Error(`registry-server exited early (${code})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const m = /^LISTENING (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        hits: () =>
          out
            .split('\n')
            .filter((l) => l.startsWith('HIT '))
            .map((l) => l.slice(4)),
        close,
      });
    });
  });
}
