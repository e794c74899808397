/**
 * `idemscan login URL` and `idemscan logout [URL]`, and the OAuth flags of `scan` and `audit`
 * (docs/OAUTH.md). The OAuth modules load only when a command needs them.
 */
import type { Command } from 'commander';
import type { OAuthScanOptions } from '../connect/oauth/server-auth.js';
import { safeText } from '../report/terminal.js';
import { defaultCacheDir } from '../targets/npm.js';
import { EXIT, UsageError } from './exit.js';
import { repeatable } from './options.js';

export interface OAuthFlags {
  oauth?: boolean;
  storedAuthOnly?: boolean;
  clientId?: string;
  clientSecretEnv?: string;
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
    .option('--client-id <id>', 'a pre-registered OAuth client id (with --client-secret-env: the client-credentials grant)')
    .option('--client-secret-env <VAR>', 'the environment variable holding the client secret (never the secret itself)')
    .option('--client-metadata-url <url>', "an https URL where you host idemscan's Client ID Metadata Document, for servers that accept CIMD")
    .option('--oauth-timeout <ms>', 'how long a sign-in may take, the person at the browser included', toInt, DEFAULT_OAUTH_TIMEOUT);
}

/** The scan's OAuth options from the flags: a usage error for a secret variable that is not set. */
export function oauthScanOptions(flags: OAuthFlags, print: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Partial<OAuthScanOptions> {
  if (flags.oauth && flags.storedAuthOnly) throw new UsageError('--oauth and --stored-auth-only exclude each other');
  if (flags.clientSecretEnv && !flags.clientId) throw new UsageError('--client-secret-env needs --client-id');
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
    clientMetadataUrl: flags.clientMetadataUrl,
    timeoutMs: flags.oauthTimeout ?? DEFAULT_OAUTH_TIMEOUT,
    print,
  };
}

export function registerAuth(program: Command, toInt: (v: string) => number): void {
  oauthOptions(program.command('login'), toInt)
    .description('sign in to an OAuth-protected MCP server once and store its tokens (docs/OAUTH.md)')
    .argument('<url>', 'the MCP server URL')
    .addOption(repeatable('--scope <scope>', 'a scope to request instead of the ones the server publishes', { commas: true }))
    .option('--cache-dir <dir>', 'where tokens are stored (with the npm cache)')
    .action(async (url: string, flags: OAuthFlags & { scope?: string[] }) => {
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`"${safeText(url, 300)}" is not an http(s) URL`);
      const options = oauthScanOptions({ ...flags, oauth: true });
      const cacheDir = flags.cacheDir ?? defaultCacheDir();
      const { IdemscanOAuthProvider } = await import('../connect/oauth/provider.js');
      const { signIn } = await import('../connect/oauth/sign-in.js');
      const { findRecord, recordFile } = await import('../connect/oauth/store.js');
      const provider = new IdemscanOAuthProvider(url, { cacheDir, clientId: options.clientId, clientSecret: options.clientSecret, clientMetadataUrl: options.clientMetadataUrl, scopes: flags.scope });
      try {
        await signIn(provider, { timeoutMs: options.timeoutMs!, print: options.print!, scope: flags.scope?.join(' ') });
      } catch (err) {
        // The SDK's errors may quote what the authorization server sent back, tokens included.
        const [{ SecretText }, { httpFailure }] = await Promise.all([import('../targets/secret-text.js'), import('../connect/failure.js')]);
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
