/** OAuth for one HTTP server in a scan; a sign-in starts only when asked (`--oauth`, `login`). */
import { LIMITS } from '../../model/limits.js';
import { auth, extractWWWAuthenticateParams, UnauthorizedError, type AuthProvider } from '@modelcontextprotocol/client';
import { bounded } from '../../model/bounds.js';
import type { AuthInfo } from '../../model/schema.js';
import { ScanFailure } from '../failure.js';
import { CHALLENGE_CHARS, describeAuth, type Challenge } from './describe.js';
import { guardedFetch, resourceMetadataProblem } from './fetch.js';
import { IdemscanOAuthProvider, SignInNeeded, type OAuthClientSettings } from './provider.js';
import { signIn } from './sign-in.js';
import { canonicalServerUrl, hasRecord } from './store.js';

export interface OAuthScanOptions {
  cacheDir: string;
  /** `--oauth`: sign in (browser) when a server needs it. */
  interactive?: boolean;
  /** `--stored-auth-only`: use stored tokens (refreshing them), never sign in. */
  storedOnly?: boolean;
  timeoutMs: number;
  /** `--client-id`: used only for servers on `clientOrigins`. */
  clientId?: string;
  /** The secret's value, read from the variable `--client-secret-env` names: used only with `interactive`. */
  clientSecret?: string;
  /** The origins the user named for the client (`audit URL`, `login URL`, `--client-origin`); no other server's. */
  clientOrigins?: string[];
  clientMetadataUrl?: string;
  scopes?: string[];
  print: (line: string) => void;
}

/** A target's `oauth` entry: a public client id and scopes. A target file never names a secret. */
export type TargetOAuth = { clientId?: string; scopes?: string[] };

/** Per-request bound for discovery and token calls made during a scan. */
const OAUTH_REQUEST_MS = 10_000;

export class ServerAuth {
  challenge?: Challenge;
  signedIn = false;
  private needsSignIn = false;
  private reauthorizing?: Promise<void>;
  readonly provider?: IdemscanOAuthProvider;

  constructor(
    private readonly url: string,
    private readonly opts: OAuthScanOptions | undefined,
    targetOAuth: TargetOAuth | undefined,
    private readonly signal?: AbortSignal,
  ) {
    if (!opts) return;
    // Command-line credentials go only to the servers the user named for them, never to every
    // server of a list (a hostile one would name its own authorization server to receive them).
    const named = !!opts.clientId && (opts.clientOrigins ?? []).includes(new URL(url).origin);
    const wanted = opts.interactive || opts.storedOnly || targetOAuth || named || hasRecord(opts.cacheDir, url);
    if (!wanted) return;
    const settings: OAuthClientSettings = {
      cacheDir: opts.cacheDir,
      clientId: named ? opts.clientId : targetOAuth?.clientId,
      // The client-credentials grant is a sign-in: only in a run that may sign in (--oauth).
      clientSecret: named && opts.interactive && !opts.storedOnly ? opts.clientSecret : undefined,
      clientMetadataUrl: opts.clientMetadataUrl,
      scopes: targetOAuth?.scopes ?? opts.scopes,
    };
    this.provider = new IdemscanOAuthProvider(url, settings);
  }

  /** Watches every response of the MCP connection: the first refusal is what the report describes. */
  observe(res: Response): void {
    if ((res.status === 401 || res.status === 403) && !this.challenge) {
      const header = res.headers.get('www-authenticate');
      this.challenge = {
        status: res.status,
        wwwAuthenticate: header === null ? undefined : bounded(header, CHALLENGE_CHARS),
      };
    }
  }

  /** What the transport calls: the stored token before each request, and on 401 a refresh. */
  transportAuth(): AuthProvider | undefined {
    const provider = this.provider;
    if (!provider) return undefined;
    const reauthorize = this.reauthorizer(provider);
    return {
      token: async () => provider.tokens()?.access_token,
      // Requests refused together (a probe and initialize) share one refresh: refresh tokens
      // rotate, and a second refresh with the same one would be refused as reused.
      onUnauthorized: (ctx) =>
        (this.reauthorizing ??= reauthorize(ctx).finally(() => (this.reauthorizing = undefined))),
    };
  }

  private reauthorizer(provider: IdemscanOAuthProvider): (ctx: { response: Response }) => Promise<void> {
    return async (ctx) => {
      // Without a token to refresh or a machine client, only a sign-in would help: never here.
      if (!provider.hasTokens && !provider.isClientCredentials) return this.signInNeeded(provider);
      const { resourceMetadataUrl: pointed, scope } = extractWWWAuthenticateParams(ctx.response);
      // Another origin's metadata is never fetched (describe.ts reports the refusal).
      const serverOrigin = new URL(this.url).origin;
      const resourceMetadataUrl = pointed && !resourceMetadataProblem(pointed, serverOrigin) ? pointed : undefined;
      try {
        const fetchFn = guardedFetch({ serverOrigin, timeoutMs: OAUTH_REQUEST_MS, signal: this.signal });
        if ((await auth(provider, { serverUrl: this.url, resourceMetadataUrl, scope, fetchFn })) !== 'AUTHORIZED')
          throw new UnauthorizedError();
      } catch (err) {
        if (err instanceof SignInNeeded) return this.signInNeeded(provider);
        throw new ScanFailure('auth', `OAuth: ${bounded(String((err as Error)?.message ?? err), LIMITS.errorChars)}`);
      }
    };
  }

  /** The attempt failed for want of a sign-in, and this scan may start one (`--oauth`). */
  get canSignIn(): boolean {
    return this.needsSignIn && !!this.opts?.interactive && !this.opts.storedOnly && !!this.provider;
  }

  async signIn(): Promise<void> {
    await signIn(this.provider!, { timeoutMs: this.opts!.timeoutMs, signal: this.signal, print: this.opts!.print });
    this.needsSignIn = false;
    this.signedIn = true;
  }

  async describe(budgetMs: number): Promise<AuthInfo | undefined> {
    if (!this.challenge) return undefined;
    // All of discovery within what is left of the server's --timeout (at least 2 s, at most 10 s).
    const total = AbortSignal.timeout(Math.min(OAUTH_REQUEST_MS, Math.max(2_000, budgetMs)));
    const signal = this.signal ? AbortSignal.any([this.signal, total]) : total;
    const info = await describeAuth(this.url, this.challenge, { timeoutMs: OAUTH_REQUEST_MS, signal });
    if (this.provider) info.signedIn = this.provider.hasTokens;
    return info;
  }

  /** A refusal from a server idemscan was not asked to sign in to says how to sign in. */
  explain(err: unknown): unknown {
    if (this.provider || !this.challenge || !(err instanceof ScanFailure) || err.kind !== 'auth') return err;
    return new ScanFailure(
      'auth',
      `${err.message}; if it uses OAuth, sign in once with \`idemscan login ${canonicalServerUrl(this.url)}\` (or scan with --oauth)`,
    );
  }

  secrets(): string[] {
    return this.provider ? [...this.provider.secrets] : [];
  }

  private signInNeeded(provider: IdemscanOAuthProvider): never {
    this.needsSignIn = true;
    throw new ScanFailure('auth', new SignInNeeded(provider.serverUrl).message);
  }
}
