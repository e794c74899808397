/** The SDK's `auth()` runs the flow; this keeps what it hands over (store.ts) and every secret it saw. */
import { randomBytes } from 'node:crypto';
import {
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { discoveryProblem } from './endpoints.js';
import { authorizationUrlProblem, RefusedUrlError } from './fetch.js';
import { canonicalServerUrl, findRecord, recordSecrets, writeRecord, type TokenRecord } from './store.js';

export interface OAuthClientSettings {
  cacheDir: string;
  /** A pre-registered client (`--client-id`, a target's `oauth.clientId`). */
  clientId?: string;
  /** `--client-secret-env`: the client-credentials grant, only for a named server in a run that may sign in. */
  clientSecret?: string;
  /** An https URL of idemscan's Client ID Metadata Document, for servers that accept CIMD. */
  clientMetadataUrl?: string;
  /** Scopes to ask for instead of the ones the server's metadata names. */
  scopes?: string[];
}

/** The flow needs a person at a browser, and this run may not start one (a scan without --oauth). */
export class SignInNeeded extends Error {
  constructor(readonly serverUrl: string) {
    super(
      `sign-in required: run \`idemscan login ${serverUrl}\` once where a browser is available; scans then use the stored tokens`,
    );
    this.name = 'SignInNeeded';
  }
}

/** Stands in before a loopback listener exists; a real sign-in replaces it with the listener's URL. */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

export class IdemscanOAuthProvider implements OAuthClientProvider {
  readonly serverUrl: string;
  /** Every token, code, verifier and client secret seen: for the redactor. */
  readonly secrets = new Set<string>();
  /** Set by a sign-in that listens for the redirect; without it redirectToAuthorization refuses. */
  onAuthorizationUrl?: (url: URL) => void;
  redirect = PLACEHOLDER_REDIRECT;
  expectedState?: string;
  private record: TokenRecord;
  private verifier = '';
  private readonly credentials: boolean;

  constructor(
    serverUrl: string,
    private readonly settings: OAuthClientSettings,
  ) {
    this.serverUrl = canonicalServerUrl(serverUrl);
    const stored = findRecord(settings.cacheDir, this.serverUrl);
    this.record = stored ?? { version: 1, serverUrl: this.serverUrl, issuer: '', registration: 'unknown' };
    for (const s of recordSecrets(stored)) this.secrets.add(s);
    if (settings.clientSecret) this.secrets.add(settings.clientSecret);
    // Not the SDK's ClientCredentialsProvider: it keeps tokens in memory only, and warns on stderr
    // when built before the issuer is known; its grant is the three lines of prepareTokenRequest.
    this.credentials = !!(settings.clientId && settings.clientSecret);
  }

  /** Whether a token is on file (it may have expired: a 401 then refreshes it). */
  get hasTokens(): boolean {
    return !!this.record.tokens?.access_token;
  }

  get isClientCredentials(): boolean {
    return this.credentials;
  }

  get redirectUrl(): string | undefined {
    return this.credentials ? undefined : this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {};
    if (this.credentials)
      return {
        client_name: 'idemscan',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
        ...scope,
      };
    return {
      client_name: 'idemscan',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...scope,
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    if (this.settings.clientId) {
      // Bound to the first authorization server it was used with, as the SDK's issuer check expects.
      const issuer = this.record.issuer || ctx?.issuer;
      return {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    return this.sameIssuer(ctx) ? this.record.client : undefined;
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    if (info.client_secret) this.secrets.add(info.client_secret);
    // A pre-registered client's secret comes from the environment every time: never written down.
    if (this.settings.clientId) return;
    this.adopt(ctx);
    this.record.client = info;
    this.record.registration =
      this.settings.clientMetadataUrl && info.client_id === this.settings.clientMetadataUrl ? 'cimd' : 'dcr';
    this.persist();
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    return this.sameIssuer(ctx) ? this.record.tokens : undefined;
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    for (const s of [tokens.access_token, tokens.refresh_token, (tokens as { id_token?: string }).id_token])
      if (s) this.secrets.add(s);
    this.adopt(ctx);
    this.record.tokens = tokens;
    this.record.savedAt = Date.now();
    if (this.settings.clientId) this.record.registration = this.credentials ? 'client-credentials' : 'preregistered';
    this.persist();
  }

  redirectToAuthorization(url: URL): void {
    if (!this.onAuthorizationUrl) throw new SignInNeeded(this.serverUrl);
    // Never printed or opened: a `file:`, `smb:` or `vscode:` link from a server's metadata.
    const problem = authorizationUrlProblem(url);
    if (problem) throw new RefusedUrlError(problem);
    this.onAuthorizationUrl(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.secrets.add(verifier);
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.credentials) return undefined; // the SDK's default: the authorization-code exchange
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const state = this.record.discovery;
    // A stored state that fails these checks is discovered again (and checked then).
    return state && !discoveryProblem(state, this.serverOrigin) ? state : undefined;
  }

  /** The SDK hands discovery over before it registers or builds a URL: a bad endpoint stops it here. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const problem = discoveryProblem(state, this.serverOrigin);
    if (problem) throw new RefusedUrlError(problem);
    this.record.discovery = state;
  }

  private get serverOrigin(): string {
    return new URL(this.serverUrl).origin;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.record.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.record.tokens = undefined;
    if (scope === 'all' || scope === 'discovery') this.record.discovery = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    if (this.record.issuer) this.persist();
  }

  /** Credentials minted by one authorization server are never offered to another. */
  private sameIssuer(ctx?: OAuthClientInformationContext): boolean {
    return !ctx || !this.record.issuer || ctx.issuer === this.record.issuer;
  }

  private adopt(ctx?: OAuthClientInformationContext): void {
    if (!ctx || ctx.issuer === this.record.issuer) return;
    // Another authorization server: a fresh record (its own file), nothing carried over.
    this.record = {
      version: 1,
      serverUrl: this.serverUrl,
      issuer: ctx.issuer,
      registration: 'unknown',
      discovery: this.record.discovery,
    };
  }

  private persist(): void {
    if (this.record.issuer) writeRecord(this.settings.cacheDir, this.record);
  }
}
