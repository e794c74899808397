/** `idemscan targets refresh FILE`: re-pin and write the file back, old -> new on stdout. */
import { refreshTargets, type RefreshOutcome } from '../registry/refresh.js';
import { msg, show } from '../../render/message.js';
import { EXIT } from '../../shell/exit.js';
import { note, tell } from '../../shell/say.js';
import { writeOutputFile } from '../../app/output.js';
import type { RefreshFlags } from './flags.js';

export async function refreshCommand(file: string, flags: RefreshFlags): Promise<void> {
  const outcome = await refreshTargets(file, flags);
  const written = outcome.changes.length > 0 && !flags.dryRun;
  if (written) await writeOutputFile(file, outcome.text);
  if (flags.json) {
    const { changes, held, unchanged, failed } = outcome;
    process.stdout.write(JSON.stringify({ file, written, changes, held, unchanged, failed }, null, 2) + '\n');
  } else print(file, flags, outcome);
  if (outcome.failed.length === outcome.pins) process.exitCode = EXIT.allFailed;
}

function print(file: string, flags: RefreshFlags, outcome: RefreshOutcome): void {
  const { changes, held, unchanged, failed } = outcome;
  for (const c of changes)
    process.stdout.write(msg`${show.name(c.name)}: ${show.name(c.from)} -> ${show.name(c.to)}\n`.text);
  for (const h of held)
    note(
      msg`${show.name(h.name)}: held at ${show.name(h.at)} (latest ${show.name(h.latest)}): ${show.reason(h.reason)}`,
    );
  for (const f of failed) tell(msg`${show.name(f.name)}: not refreshed: ${show.reason(f.error)}`);
  const verb = flags.dryRun ? 'would re-pin' : changes.length > 0 ? 're-pinned' : 'nothing to re-pin in';
  const all = changes.length + held.length + unchanged.length + failed.length;
  note(
    msg`${verb} ${changes.length ? `${changes.length} of ${all} entries in ` : ''}${show.path(file)}; ${unchanged.length} already latest, ${held.length} held, ${failed.length} not refreshed`,
  );
}
