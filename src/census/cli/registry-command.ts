/** `idemscan registry pull`: census/registry/registry-pull.ts pulls; this writes the file and says how it went. */
import { pullRegistry, type PullEvent } from '../registry/registry-pull.js';
import { msg, show } from '../../render/message.js';
import { EXIT } from '../../shell/exit.js';
import { note, tell, warn } from '../../shell/say.js';
import { writeOutputFile } from '../../app/output.js';
import type { PullFlags } from './flags.js';

function onEvent(out: string): (e: PullEvent) => void {
  return (e) => {
    if (e.type === 'since') {
      const from = e.kept !== undefined ? msg` (${e.kept} servers in ${show.path(out)})` : msg``;
      note(msg`registry pull: only what changed since ${e.since}${from}`);
    } else if (e.type === 'page') {
      note(msg`registry page ${e.page}: ${e.kept} servers kept, ${e.skipped} skipped, ${e.gone} deleted or deprecated`);
    } else note(msg`skipped ${show.name(e.name)}: ${show.reason(e.reason)}`);
  };
}

export async function pullCommand(flags: PullFlags): Promise<void> {
  const got = await pullRegistry(flags, onEvent(flags.out));
  await writeOutputFile(flags.out, got.text);
  if (got.oversize !== undefined)
    warn(
      msg`${show.path(flags.out)} is larger than the ${got.oversize / 1024 / 1024} MB scan reads from one file: split it (remotes and packages apart, as docs/examples/registry-census.yml does)`,
    );
  const rate = got.seconds > 0 ? ` (${(got.pages / got.seconds).toFixed(1)} pages/s)` : '';
  note(
    msg`wrote ${show.path(flags.out)}: ${got.servers} servers from ${got.pages} pages in ${got.seconds.toFixed(1)} s${rate}; ${got.deleted} deleted and ${got.deprecated} deprecated left out, ${got.skipped} skipped`,
  );
  if (got.error !== undefined) {
    tell(msg`registry pull stopped: ${show.message(got.error)}; kept what was read before`);
    process.exitCode = EXIT.allFailed;
  }
}
