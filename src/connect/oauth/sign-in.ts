/** One sign-in: the SDK's `auth()` runs the flow; the redirect comes to a loopback port (RFC 8252). */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { auth, type AuthResult } from '@modelcontextprotocol/client';
import { bounded } from '../../model/bounds.js';
import { guardedFetch } from './fetch.js';
import { IdemscanOAuthProvider } from './provider.js';

export interface SignInOptions {
  /** Bound on the whole sign-in, the person at the browser included (`--oauth-timeout`). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the authorization URL is shown (stderr in the CLI). */
  print: (line: string) => void;
  scope?: string;
  /** false: print the URL only (tests; IDEMSCAN_NO_BROWSER=1). */
  openBrowser?: boolean;
}

class SignInFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInFailed';
  }
}

export async function signIn(provider: IdemscanOAuthProvider, opts: SignInOptions): Promise<void> {
  const fetchFn = guardedFetch({
    serverOrigin: new URL(provider.serverUrl).origin,
    timeoutMs: Math.min(opts.timeoutMs, 30_000),
    signal: opts.signal,
  });
  const base = { serverUrl: provider.serverUrl, fetchFn, scope: opts.scope };
  if (provider.isClientCredentials) {
    if ((await auth(provider, base)) !== 'AUTHORIZED')
      throw new SignInFailed('the client-credentials grant did not give a token');
    return;
  }
  const loopback = await listen();
  provider.redirect = loopback.redirectUrl;
  provider.onAuthorizationUrl = (url) => {
    opts.print(
      `Sign in to ${provider.serverUrl} in a browser:\n  ${url.href}\nWaiting up to ${Math.round(opts.timeoutMs / 1000)} s for the redirect to ${loopback.redirectUrl}`,
    );
    if (opts.openBrowser !== false && process.env.IDEMSCAN_NO_BROWSER !== '1') openBrowser(url.href);
  };
  try {
    const first: AuthResult = await auth(provider, base);
    if (first === 'AUTHORIZED') return; // a stored refresh token was enough
    const answer = await loopback.wait(opts.timeoutMs, opts.signal);
    if (answer.error)
      throw new SignInFailed(`the authorization server answered ${JSON.stringify(bounded(answer.error, 100))}`);
    if (!answer.code) throw new SignInFailed('the redirect carried no authorization code');
    if (!provider.expectedState || answer.state !== provider.expectedState)
      throw new SignInFailed('the redirect carried the wrong state; sign-in abandoned');
    provider.secrets.add(answer.code);
    const second = await auth(provider, { ...base, authorizationCode: answer.code, iss: answer.iss });
    if (second !== 'AUTHORIZED') throw new SignInFailed('the code exchange did not give a token');
  } finally {
    provider.onAuthorizationUrl = undefined;
    loopback.close();
  }
}

interface Answer {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
}

interface Loopback {
  redirectUrl: string;
  wait(timeoutMs: number, signal?: AbortSignal): Promise<Answer>;
  close(): void;
}

/** A one-shot listener on 127.0.0.1 (any free port: RFC 8252 §7.3 lets the port vary). */
async function listen(): Promise<Loopback> {
  let settle: (a: Answer) => void = () => {};
  const answered = new Promise<Answer>((resolve) => (settle = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const q = url.searchParams;
    const answer: Answer = {
      code: q.get('code') ?? undefined,
      state: q.get('state') ?? undefined,
      iss: q.get('iss') ?? undefined,
      error: q.get('error') ?? undefined,
    };
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      `<!doctype html><title>idemscan</title><p>${answer.code ? 'Signed in. You can close this tab and return to idemscan.' : 'Sign-in did not finish; see the terminal.'}</p>`,
    );
    settle(answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    wait: (timeoutMs, signal) =>
      new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new SignInFailed(`no sign-in within ${timeoutMs} ms (--oauth-timeout)`)),
          timeoutMs,
        );
        const onAbort = () => reject(new SignInFailed('interrupted'));
        signal?.addEventListener('abort', onAbort, { once: true });
        void answered.then((a) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        });
      }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Best effort: a desktop session gets a browser tab; a headless one has the printed URL. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : process.env.DISPLAY || process.env.WAYLAND_DISPLAY
          ? ['xdg-open', [url]]
          : [undefined, []];
  if (!cmd) return;
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the URL is printed
  }
}
