/** The OAuth flags of the commands that scan and of `login` (docs/OAUTH.md), and what they make of them. */
import type { OAuthScanOptions } from '../../connect/oauth/server-auth.js';
import { DEFAULTS } from '../../model/limits.js';
import { InputError } from '../../model/input-error.js';
import { msg, show } from '../../render/message.js';
import type { SignInOptions } from './auth.js';

export type { OAuthScanOptions };

/** How a scan signs in to HTTP servers (docs/OAUTH.md): none of it for a lock. */
export interface OAuthSettings {
  oauth?: boolean;
  storedAuthOnly?: boolean;
  clientId?: string;
  clientSecretEnv?: string;
  clientMetadataUrl?: string;
  oauthTimeout?: number;
  clientOrigin?: string[];
}

/** `named`: the URL the command itself names (`audit URL`, `login URL`), whose origin the client is for. */
export function oauthScanOptions(
  flags: OAuthSettings,
  named: string | undefined,
  print: (text: string) => void,
): Partial<OAuthScanOptions> {
  if (flags.oauth && flags.storedAuthOnly) throw new InputError('--oauth and --stored-auth-only exclude each other');
  if (flags.clientSecretEnv && !flags.clientId) throw new InputError('--client-secret-env needs --client-id');
  if (flags.clientSecretEnv && !flags.oauth)
    throw new InputError(
      '--client-secret-env needs --oauth (the client-credentials grant is a sign-in, run only when asked for)',
    );
  const clientOrigins = [...(named ? [new URL(named).origin] : []), ...(flags.clientOrigin ?? []).map(originOf)];
  if (flags.clientId && clientOrigins.length === 0) {
    throw new InputError(
      '--client-id: name the servers it is for with --client-origin https://host (command-line client credentials go only to servers you name)',
    );
  }
  checkMetadataUrl(flags.clientMetadataUrl);
  const clientSecret = secretOf(flags.clientSecretEnv);
  return {
    interactive: !!flags.oauth,
    storedOnly: !!flags.storedAuthOnly,
    clientId: flags.clientId,
    clientSecret,
    clientOrigins,
    clientMetadataUrl: flags.clientMetadataUrl,
    timeoutMs: flags.oauthTimeout ?? DEFAULTS.signInTimeoutMs,
    print,
  };
}

/** A Client ID Metadata Document is served at an https URL with a path. */
function checkMetadataUrl(cimd: string | undefined): void {
  if (
    cimd !== undefined &&
    (!URL.canParse(cimd) || new URL(cimd).protocol !== 'https:' || new URL(cimd).pathname === '/')
  ) {
    throw new InputError(
      '--client-metadata-url: an https URL with a path (where your client metadata document is served)',
    );
  }
}

function secretOf(variable: string | undefined): string | undefined {
  if (!variable) return undefined;
  const secret = process.env[variable];
  if (!secret)
    throw new InputError(msg`--client-secret-env ${show.name(variable)}: that environment variable is not set`);
  return secret;
}

/** Nothing after the host, so that the user sees what it covers. */
function originOf(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const bare =
    url &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    !url.username &&
    !url.password &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash;
  if (!bare)
    throw new InputError(
      msg`--client-origin "${show.url(value)}": an origin, as https://host or https://host:port (no path)`,
    );
  return url.origin;
}

/** A sign-in is what login is for, so --oauth is implied. */
export function signInOptions(
  url: string,
  flags: OAuthSettings & { cacheDir?: string; scope?: string[] },
  print: (text: string) => void,
): SignInOptions {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new InputError(msg`"${show.url(url)}" is not an http(s) URL`);
  const options = oauthScanOptions({ ...flags, oauth: true }, url, print);
  return {
    cacheDir: flags.cacheDir,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientMetadataUrl: options.clientMetadataUrl,
    scopes: flags.scope,
    timeoutMs: options.timeoutMs!,
    print,
  };
}
