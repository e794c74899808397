/** The OAuth fixture (test/fixtures/servers/oauth-servers.mjs) as a process, a consent "click" over plain HTTP, and `login` with it. */
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { OAUTH_FIXTURE } from '../fixtures/index.js';
import { CLI } from './cli.js';

export interface OAuthFixture {
  /** The protected MCP server, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  issuer: string;
  /** MODE=cimd: the https URL of the client's metadata document. */
  cimd?: string;
  /** Everything the fixture wrote on stderr so far (it says `refreshed` on each refresh). */
  stderr(): string;
  close(): Promise<void>;
}

export function startOAuthFixture(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [OAUTH_FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(t);
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => void close().then(() => reject(new Error(`oauth fixture did not start: ${stderr}`))),
      60_000,
    );
    child.once('exit', (code) => reject(new Error(`oauth fixture exited (${code}): ${stderr}`)));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      const url = /^LISTENING (\S+)$/m.exec(stdout)?.[1];
      const issuer = /^AUTH (\S+)$/m.exec(stdout)?.[1];
      if (!url || !issuer) return;
      clearTimeout(timer);
      resolve({ url, issuer, cimd: /^CIMD (\S+)$/m.exec(stdout)?.[1], stderr: () => stderr, close });
    });
  });
}

/** Waits until `text()` holds the authorization URL idemscan printed, and returns it; throws once `ended()`. */
export async function authorizationUrl(text: () => string, timeoutMs = 90_000, ended = () => false): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(text())?.[1];
    if (found) return found;
    if (Date.now() > until || ended()) throw new Error(`no authorization URL printed; output so far:\n${text()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What a person does without a browser's help: GET the consent page, POST its form with Allow,
 * follow the redirect to idemscan's loopback listener. The Chromium test does the same by clicking.
 */
async function consentOverHttp(authorizeUrl: string): Promise<void> {
  const page = await (await fetch(authorizeUrl)).text();
  const id = /name="id" value="([^"]+)"/.exec(page)?.[1];
  if (!id) throw new Error(`no consent form in: ${page.slice(0, 500)}`);
  const res = await fetch(new URL('/consent', authorizeUrl), {
    method: 'POST',
    body: new URLSearchParams({ id, decision: 'allow' }),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (!location) throw new Error(`consent gave no redirect (${res.status})`);
  const back = await fetch(location);
  if (!back.ok) throw new Error(`loopback listener answered ${back.status}`);
}

/** `idemscan login URL`, consenting over HTTP as soon as the URL is printed. */
export async function login(url: string, cache: string, extra: string[] = []) {
  const child = execa(
    process.execPath,
    [CLI, 'login', url, '--cache-dir', cache, '--oauth-timeout', '30000', ...extra],
    { reject: false, timeout: 150_000 },
  );
  let stderr = '';
  let ended = false;
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  void child.finally(() => (ended = true));
  // A login that failed before printing the URL is returned as it ended (its exit code and stderr).
  const printed = await authorizationUrl(
    () => stderr,
    90_000,
    () => ended,
  ).catch(() => undefined);
  if (printed) await consentOverHttp(printed);
  return { ...(await child), stderr };
}
