/** `idemscan diff OLD.json NEW.json`: what changed between two reports. */
import { diffFiles } from '../app/saved/diff.js';
import { diffJsonSchema } from '../model/diff.js';
import { InputError } from '../model/input-error.js';
import { renderDiff } from '../render/diff.js';
import { EXIT } from '../shell/exit.js';
import type { DiffFlags } from './flags.js';

export async function diffCommand(
  oldFile: string | undefined,
  newFile: string | undefined,
  flags: DiffFlags,
): Promise<void> {
  if (flags.schema) {
    if (oldFile !== undefined) throw new InputError('--schema takes no report files');
    process.stdout.write(JSON.stringify(diffJsonSchema(), null, 2) + '\n');
    process.exitCode = EXIT.ok;
    return;
  }
  if (oldFile === undefined || newFile === undefined) throw new InputError('diff needs two reports: OLD.json NEW.json');
  // --format and --fail-on are words commander's parsers checked (flags.ts, wordParser).
  const doc = await diffFiles(oldFile, newFile);
  process.stdout.write(renderDiff(doc, flags.format));
  process.exitCode = flags.failOn === 'regression' && doc.regression ? EXIT.failOn : EXIT.ok;
}
