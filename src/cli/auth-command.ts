/** `idemscan login URL` and `idemscan logout [URL]` (docs/OAUTH.md). */
import type { Command } from '@commander-js/extra-typings';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { EXIT } from '../shell/exit.js';
import { block, tell } from '../shell/say.js';
import { cacheDir, type FlagsOf } from '../shell/options.js';
import { loginFlags } from './flags.js';

export function registerAuth(program: Command): void {
  loginFlags(program.command('login'))
    .description('sign in to an OAuth-protected MCP server once and store its tokens (docs/OAUTH.md)')
    .argument('<url>', 'the MCP server URL')
    .action(login);
  program
    .command('logout')
    .description('remove the stored OAuth tokens of one MCP server, or of all of them')
    .argument('[url]', 'the MCP server URL (default: every server)')
    .addOption(cacheDir())
    .action(async (url, flags) => {
      if (url !== undefined && !URL.canParse(url)) throw new InputError(msg`"${show.url(url)}" is not a URL`);
      const gone = await (await import('../app/auth/auth.js')).signOut(url, flags.cacheDir);
      const what = gone.length === 0 ? 'No stored tokens' : `Removed ${gone.length} token file(s)`;
      process.stdout.write(msg`${what}${url ? msg` for ${show.url(url)}` : ''}\n`.text);
    });
}

async function login(url: string, flags: FlagsOf<typeof loginFlags>): Promise<void> {
  const options = (await import('../app/auth/oauth-options.js')).signInOptions(url, flags, block);
  const got = await (await import('../app/auth/auth.js')).signInTo(url, options);
  if (!got.ok) {
    tell(msg`login failed: ${show.message(got.message)}`);
    process.exitCode = EXIT.allFailed;
    return;
  }
  const stored = got.file ? msg`; tokens stored in ${show.path(got.file)}` : msg``;
  process.stdout.write(msg`Signed in to ${show.url(url)}${stored}\n`.text);
}
