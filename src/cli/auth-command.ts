/**
 * `idemscan login URL` and `idemscan logout [URL]`, and the OAuth flags of `scan` and `audit`
 * (docs/OAUTH.md). The OAuth modules load only when a command needs them.
 */
import type { Command, Option } from 'commander';
import type { OAuthScanOptions } from '../connect/oauth/server-auth.js';
import { safeText } from '../render/terminal.js';
import { defaultCacheDir } from '../targets/npm.js';
import { EXIT, UsageError } from './exit.js';
import { repeatable } from './options.js';

export interface OAuthFlags {
  oauth?: boolean;
  storedAuthOnly?: boolean;
  clientId?: string;
  clientSecretEnv?: string;
  /** scan only: the origins `--client-id` (and its secret) are for. */
  clientOrigin?: string[];
  clientMetadataUrl?: string;
  oauthTimeout?: number;
  cacheDir?: string;
}

const DEFAULT_OAUTH_TIMEOUT = 120_000;

/** The OAuth flags, shared by scan, audit and login. */
export function oauthOptions(cmd: Command, toInt: (v: string) => number): Command {
  return cmd
    .option('--oauth', 'sign in (browser, loopback redirect) to HTTP servers that need OAuth; tokens are stored for later scans')
    .option('--stored-auth-only', 'for CI: use stored OAuth tokens (refreshing them), never sign in; a server that needs a sign-in fails with kind auth')
    .option('--client-id <id>', "a pre-registered OAuth client id, used only for the server you name (audit's or login's URL; scan: --client-origin)")
    .option('--client-secret-env <VAR>', 'the environment variable holding that client\'s secret (never the secret itself): the client-credentials grant, with --oauth or login only')
    .option('--client-metadata-url <url>', "an https URL where you host idemscan's Client ID Metadata Document, for servers that accept CIMD")
    .option('--oauth-timeout <ms>', 'how long a sign-in may take, the person at the browser included', toInt, DEFAULT_OAUTH_TIMEOUT);
}

/** scan's `--client-origin`, repeatable: the servers command-line client credentials are for. */
export const clientOriginOption = (): Option =>
  repeatable('--client-origin <origin>', 'the origin (https://host[:port]) of the servers --client-id and --client-secret-env are for; no other server gets them', { commas: true });

/**
 * The scan's OAuth options from the flags: a usage error for a secret variable that is not set,
 * a secret without --oauth, or a client id for no named server. `named`: the URL the command
 * itself names (`audit URL`, `login URL`), whose origin the client is for.
 */
export function oauthScanOptions(flags: OAuthFlags, named?: string, print: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Partial<OAuthScanOptions> {
  if (flags.oauth && flags.storedAuthOnly) throw new UsageError('--oauth and --stored-auth-only exclude each other');
  if (flags.clientSecretEnv && !flags.clientId) throw new UsageError('--client-secret-env needs --client-id');
  // The client-credentials grant is a sign-in: it runs only when asked for, never from stored-token CI runs.
  if (flags.clientSecretEnv && !flags.oauth) throw new UsageError('--client-secret-env needs --oauth (the client-credentials grant is a sign-in, run only when asked for)');
  const clientOrigins = [...(named ? [new URL(named).origin] : []), ...(flags.clientOrigin ?? []).map(originOf)];
  if (flags.clientId && clientOrigins.length === 0) {
    throw new UsageError('--client-id: name the servers it is for with --client-origin https://host (command-line client credentials go only to servers you name)');
  }
  const cimd = flags.clientMetadataUrl;
  if (cimd !== undefined && (!URL.canParse(cimd) || new URL(cimd).protocol !== 'https:' || new URL(cimd).pathname === '/')) {
    throw new UsageError('--client-metadata-url: an https URL with a path (where your client metadata document is served)');
  }
  let clientSecret: string | undefined;
  if (flags.clientSecretEnv) {
    clientSecret = process.env[flags.clientSecretEnv];
    if (!clientSecret) throw new UsageError(`--client-secret-env ${safeText(flags.clientSecretEnv, 100)}: that environment variable is not set`);
  }
  return {
    interactive: !!flags.oauth,
    storedOnly: !!flags.storedAuthOnly,
    clientId: flags.clientId,
    clientSecret,
    clientOrigins,
    clientMetadataUrl: flags.clientMetadataUrl,
    timeoutMs: flags.oauthTimeout ?? DEFAULT_OAUTH_TIMEOUT,
    print,
  };
}

/** `https://host[:port]`: a URL with nothing after the host, so that the user sees what it covers. */
function originOf(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const bare = url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
  if (!bare) throw new UsageError(`--client-origin "${safeText(value, 200)}": an origin, as https://host or https://host:port (no path)`);
  return url.origin;
}

export function registerAuth(program: Command, toInt: (v: string) => number): void {
  oauthOptions(program.command('login'), toInt)
    .description('sign in to an OAuth-protected MCP server once and store its tokens (docs/OAUTH.md)')
    .argument('<url>', 'the MCP server URL')
    .addOption(repeatable('--scope <scope>', 'a scope to request instead of the ones the server publishes', { commas: true }))
    .option('--cache-dir <dir>', 'where tokens are stored (with the npm cache)')
    .action(async (url: string, flags: OAuthFlags & { scope?: string[] }) => {
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`"${safeText(url, 300)}" is not an http(s) URL`);
      const options = oauthScanOptions({ ...flags, oauth: true }, url);
      const cacheDir = flags.cacheDir ?? defaultCacheDir();
      const { IdemscanOAuthProvider } = await import('../connect/oauth/provider.js');
      const { signIn } = await import('../connect/oauth/sign-in.js');
      const { findRecord, recordFile } = await import('../connect/oauth/store.js');
      const provider = new IdemscanOAuthProvider(url, { cacheDir, clientId: options.clientId, clientSecret: options.clientSecret, clientMetadataUrl: options.clientMetadataUrl, scopes: flags.scope });
      try {
        await signIn(provider, { timeoutMs: options.timeoutMs!, print: options.print!, scope: flags.scope?.join(' ') });
      } catch (err) {
        // The SDK's errors may quote what the authorization server sent back, tokens included.
        const [{ SecretText }, { httpFailure }] = await Promise.all([import('../redact/secret-text.js'), import('../connect/failure.js')]);
        // A network failure in the words a scan uses (`ECONNREFUSED 127.0.0.1:3000: ...`), not fetch's "fetch failed".
        const failure = httpFailure(err, new URL(url).host);
        const message = new SecretText([...provider.secrets]).redact(failure.kind === 'unreachable' ? failure.message : String((err as Error)?.message ?? err));
        process.stderr.write(`idemscan: login failed: ${safeText(message, 1_000)}\n`);
        process.exitCode = EXIT.allFailed;
        return;
      }
      const record = findRecord(cacheDir, url);
      const file = record ? recordFile(cacheDir, record.issuer, record.serverUrl) : undefined;
      process.stdout.write(`Signed in to ${safeText(url, 300)}${file ? `; tokens stored in ${safeText(file, 300)}` : ''}\n`);
    });

  program
    .command('logout')
    .description('remove the stored OAuth tokens of one MCP server, or of all of them')
    .argument('[url]', 'the MCP server URL (default: every server)')
    .option('--cache-dir <dir>', 'where tokens are stored')
    .action(async (url: string | undefined, flags: { cacheDir?: string }) => {
      if (url !== undefined && !URL.canParse(url)) throw new UsageError(`"${safeText(url, 300)}" is not a URL`);
      const { removeRecords } = await import('../connect/oauth/store.js');
      const gone = removeRecords(flags.cacheDir ?? defaultCacheDir(), url);
      process.stdout.write(`${gone.length === 0 ? 'No stored tokens' : `Removed ${gone.length} token file(s)`}${url ? ` for ${safeText(url, 300)}` : ''}\n`);
    });
}
