/** `audit --tools FILE`: saved tools/list results, or one server of a report idemscan wrote. */
import { InputError } from '../../model/input-error.js';
import { bounded } from '../../model/bounds.js';
import type { Report } from '../../model/schema.js';
import { msg, show } from '../../render/message.js';
import { savedFromReport } from '../../targets/report-tools.js';
import type { Target } from '../../targets/types.js';

const NOT_SAVED =
  'not a saved tools/list result (expected {"tools": [...]} with optional "capabilities" and "serverInfo", a bare array of tools, one such result per line, or a report.json idemscan wrote)';

const NAMES_SHOWN = 20;

export async function staticTargets(
  file: string,
  words: string[],
  flags: { name?: string; server?: string },
): Promise<Target[]> {
  if (words.length > 0)
    throw new InputError(
      msg`--tools reads a saved tools/list result: give no command or URL as well (got "${show.url(words[0]!)}")`,
    );
  const [{ readBounded }, { savedTargets }] = await Promise.all([
    import('../../targets/load.js'),
    import('../../targets/saved-tools.js'),
  ]);
  let large: Report | undefined;
  const text = await readBounded(file, '--tools').catch(async (err: unknown) => {
    // A census report may be larger than any tools list: read as a report, or the error stands.
    if ((err as { kind?: string }).kind === 'too-large' && (large = await report(file))) return undefined;
    throw err;
  });
  const saved = text === undefined ? undefined : savedTargets(text, file);
  if (saved && flags.server !== undefined)
    throw new InputError('--server picks a server of a report idemscan wrote; this file is a saved tools list', {
      field: '--server',
      file,
    });
  const targets = saved ?? [reportTarget(file, large ?? (await report(file, text)), flags.server)];
  if (flags.name !== undefined && targets.length === 1) targets[0]!.name = flags.name;
  return targets;
}

async function report(file: string, text?: string): Promise<Report | undefined> {
  const { parseReport, readText, SAVED_BOUNDS } = await import('../../compare/read.js');
  const whole = text ?? (await readText(file, '--tools'));
  const { parseJson } = await import('../../model/bounded-input.js');
  const parsed = parseJson(whole, SAVED_BOUNDS);
  const doc = 'value' in parsed ? parsed.value : undefined;
  if (!doc || typeof doc !== 'object' || !Object.hasOwn(doc, 'schemaVersion')) return undefined;
  return parseReport(whole, file); // a report that does not validate says why
}

function reportTarget(file: string, found: Report | undefined, name: string | undefined): Target {
  if (!found) throw new InputError(NOT_SAVED, { field: '--tools', file });
  const { servers } = found;
  const fail = (why: string) => new InputError(why, { field: name === undefined ? '--tools' : '--server', file });
  const server = name === undefined && servers.length === 1 ? servers[0] : servers.find((s) => s.name === name);
  if (!server) {
    if (servers.length === 0) throw fail('the report has no servers');
    // Raw text (the CLI escapes and bounds an input error's detail), each name cut and the list too.
    const names = servers.slice(0, NAMES_SHOWN).map((s) => JSON.stringify(bounded(s.name, 60)));
    const more = servers.length > NAMES_SHOWN ? `, and ${servers.length - NAMES_SHOWN} more` : '';
    const asked =
      name === undefined
        ? `it has ${servers.length} servers: pick one with --server NAME`
        : `it has no server ${JSON.stringify(bounded(name, 60))}`;
    throw fail(`${asked} (${names.join(', ')}${more})`);
  }
  if (server.status !== 'ok') {
    const why = server.failure ? `${server.failure.kind}: ${bounded(server.failure.message, 200)}` : 'failed';
    throw fail(
      `server ${JSON.stringify(bounded(server.name, 60))} failed in this report (${why}): it has no tools list to audit`,
    );
  }
  return { name: server.name, source: file, kind: 'saved', saved: savedFromReport(server) };
}
