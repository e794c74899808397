/**
 * `idemscan login URL` and `idemscan logout [URL]` (docs/OAUTH.md; the OAuth flags of `scan` and
 * `audit` are cli/oauth-flags.ts). The OAuth modules load only when a command needs them.
 */
import type { Command } from '@commander-js/extra-typings';
import { defaultCacheDir } from '../model/cache-dir.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { tell } from './say.js';
import { cacheDir, loginFlags } from './flags.js';
import { oauthScanOptions } from './oauth-flags.js';

export function registerAuth(program: Command): void {
  loginFlags(program.command('login'))
    .description('sign in to an OAuth-protected MCP server once and store its tokens (docs/OAUTH.md)')
    .argument('<url>', 'the MCP server URL')
    .action(async (url, flags) => {
      if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
        throw new InputError(msg`"${show.url(url)}" is not an http(s) URL`);
      const options = oauthScanOptions({ ...flags, oauth: true }, url);
      const cacheDir = flags.cacheDir ?? defaultCacheDir();
      const { IdemscanOAuthProvider } = await import('../connect/oauth/provider.js');
      const { signIn } = await import('../connect/oauth/sign-in.js');
      const { findRecord, recordFile } = await import('../connect/oauth/store.js');
      const provider = new IdemscanOAuthProvider(url, {
        cacheDir,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        clientMetadataUrl: options.clientMetadataUrl,
        scopes: flags.scope,
      });
      try {
        await signIn(provider, { timeoutMs: options.timeoutMs!, print: options.print!, scope: flags.scope?.join(' ') });
      } catch (err) {
        // The SDK's errors may quote what the authorization server sent back, tokens included.
        const [{ Redactor }, { httpFailure }] = await Promise.all([
          import('../redact/redact.js'),
          import('../connect/http-failure.js'),
        ]);
        // A network failure in the words a scan uses (`ECONNREFUSED 127.0.0.1:3000: ...`), not fetch's "fetch failed".
        const failure = httpFailure(err, new URL(url).host);
        const message = new Redactor({ secrets: [...provider.secrets] }).text(
          failure.kind === 'unreachable' ? failure.message : String((err as Error)?.message ?? err),
        );
        tell(msg`login failed: ${show.message(message)}`);
        process.exitCode = EXIT.allFailed;
        return;
      }
      const record = findRecord(cacheDir, url);
      const file = record ? recordFile(cacheDir, record.issuer, record.serverUrl) : undefined;
      const stored = file ? msg`; tokens stored in ${show.path(file)}` : msg``;
      process.stdout.write(msg`Signed in to ${show.url(url)}${stored}\n`.text);
    });

  program
    .command('logout')
    .description('remove the stored OAuth tokens of one MCP server, or of all of them')
    .argument('[url]', 'the MCP server URL (default: every server)')
    .addOption(cacheDir())
    .action(async (url, flags) => {
      if (url !== undefined && !URL.canParse(url)) throw new InputError(msg`"${show.url(url)}" is not a URL`);
      const { removeRecords } = await import('../connect/oauth/store.js');
      const gone = removeRecords(flags.cacheDir ?? defaultCacheDir(), url);
      const what = gone.length === 0 ? 'No stored tokens' : `Removed ${gone.length} token file(s)`;
      process.stdout.write(msg`${what}${url ? msg` for ${show.url(url)}` : ''}\n`.text);
    });
}
