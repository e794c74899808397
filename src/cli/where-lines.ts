/** What `idemscan where` prints: each client file found, its skipped entries, wrapped to the terminal. */
import os from 'node:os';
import path from 'node:path';
import type { Shown } from '../model/shown.js';
import type { FoundFile, LoadedTargets } from '../app/discover/discover.js';
import { PROJECT_FLAG, servers } from '../app/discover/discovered.js';
import { msg, show } from '../render/message.js';
import { displayWidth, outputWidth, wrapTo } from '../render/width.js';

/** Where the path column starts: client (18) and scope (7), each with a space. */
const PATH_AT = 27;
/** Columns the facts need after the path to start on its line: less would break their words. */
const FACTS_ROOM = 24;

/** A project file relative to the folder it was found from, a user file under `~/`: shorter, and still pastes. */
export function shortPath(file: string, scope: FoundFile['scope'], home = os.homedir(), cwd = process.cwd()): string {
  const under = (dir: string) => dir !== path.parse(dir).root && file.startsWith(dir + path.sep);
  if (scope === 'project' && under(cwd)) return `.${path.sep}${path.relative(cwd, file)}`;
  return under(home) ? `~/${path.relative(home, file)}` : file;
}

/** The file's line; past `width` the facts go on lines under the path, and a path is never broken. */
export function fileLines(f: FoundFile, width: number, home?: string, cwd?: string): string[] {
  const head = `${f.client.padEnd(18)} ${f.scope.padEnd(7)} `;
  const where = msg`${show.path(shortPath(f.file, f.scope, home, cwd))}`.text;
  const facts = fileLine(f).text;
  const one = `${head}${where}  ${facts}`;
  if (displayWidth(one) <= width) return [one];
  // Continued under the path when 30 columns are left there, else under a small indent.
  const indent = ' '.repeat(width - PATH_AT >= 30 ? PATH_AT : 4);
  const lead = `${head}${where}  `;
  if (width - displayWidth(lead) >= FACTS_ROOM) return wrapTo(facts, width, lead, indent);
  const top = displayWidth(`${head}${where}`) <= width ? [`${head}${where}`] : [head.trimEnd(), `    ${where}`];
  return [...top, ...wrapTo(facts, width, indent)];
}

function fileLine(f: FoundFile): Shown {
  if (f.error) return msg`error: ${show.reason(f.error)}`;
  const parts = [servers(f.servers)];
  if (f.skipped) parts.push(`${f.skipped} skipped`);
  if (f.leftOut) parts.push(`${f.leftOut} left out (bounded)`);
  if (f.projectServers > 0) {
    const some = f.projectServers === f.servers ? '' : `${f.projectServers} of them `;
    parts.push(`${some}project-scoped: scanned only with ${PROJECT_FLAG}`);
  }
  return msg`${parts.join(', ')}`;
}

/** Each skipped entry of the file under its line, with its reason (the file's own error is its line). */
export function skippedLines(f: FoundFile, skipped: LoadedTargets['skipped'], width = Infinity): string[] {
  return skipped
    .filter((s) => s.source === f.file && s.reason !== f.error)
    .flatMap((s) => wrapTo(msg`skipped ${show.name(s.name)}: ${show.reason(s.reason)}`.text, width, '    ', '      '));
}

export async function printWhere(flags: { json?: true }): Promise<void> {
  const found = await (await import('../app/discover/discover.js')).discoverHere([], true);
  if (flags.json) {
    const skipped = found.skipped.map(({ name, source, reason }) => ({ name, source, reason }));
    process.stdout.write(
      JSON.stringify({ files: found.files, servers: found.targets.length, skipped }, null, 2) + '\n',
    );
    return;
  }
  const width = outputWidth(process.stdout);
  const say = (lines: string[]) => void process.stdout.write(lines.map((l) => `${l}\n`).join(''));
  if (found.files.length === 0) {
    const none = msg`No MCP client configuration found in ${show.path(os.homedir())} or ${show.path(process.cwd())}.`;
    say(wrapTo(none.text, width, '', '  '));
    return;
  }
  for (const f of found.files) say([...fileLines(f, width), ...skippedLines(f, found.skipped, width)]);
  process.stdout.write(
    `${servers(found.targets.length).replace('server', 'distinct server')} in ${found.files.length} file${found.files.length === 1 ? '' : 's'}\n`,
  );
}
