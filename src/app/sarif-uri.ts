/** `--sarif-uri`: the repository file SARIF results about a server point at; parsed with the flags, before any scan. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../model/input-error.js';
import type { Shown } from '../model/shown.js';
import type { SarifUris } from '../render/types.js';
import { joinShown, msg, show } from '../render/message.js';

/** Relative to the repository root (`%SRCROOT%`), returned with its `./` segments dropped. */
export function checkRepoPath(value: string, flag = '--sarif-uri'): string {
  const fail = (why: string) => new InputError(msg`${flag} ${show.quoted(value, 'path')}: ${why}`);
  if (value === '') throw fail('expected a path relative to the repository root, e.g. src/server.ts');
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c === 127) throw fail('holds a control character');
    if (c === 92) throw fail('use / between directories, not \\');
    if (c === 58) throw fail('a path in the repository, not a URL or a drive (no ":")');
  }
  if (value.startsWith('/'))
    throw fail('an absolute path; give it relative to the repository root (the working directory)');
  const segments = value.split('/').filter((s) => s !== '.');
  if (segments.includes('..')) throw fail('".." leaves the repository; give the path from the repository root');
  if (segments.length === 0 || segments.includes(''))
    throw fail('not a file path (an empty directory name or a trailing /)');
  return segments.join('/');
}

/** A bare PATH maps every server not named; a PATH with `=` in it takes the NAME= form. */
export function parseSarifUris(values: readonly string[]): SarifUris | undefined {
  if (values.length === 0) return undefined;
  const byName = new Map<string, string>();
  let all: string | undefined;
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq < 0) {
      if (all !== undefined)
        throw new InputError(
          msg`--sarif-uri ${show.quoted(value, 'path')}: a PATH without NAME= is given twice; map each server with NAME=PATH`,
        );
      all = checkRepoPath(value);
      continue;
    }
    const name = value.slice(0, eq).trim();
    if (name === '') throw new InputError(msg`--sarif-uri ${show.quoted(value, 'path')}: expected NAME=PATH or PATH`);
    if (byName.has(name)) throw new InputError(msg`--sarif-uri: server "${show.name(name)}" is mapped twice`);
    byName.set(name, checkRepoPath(value.slice(eq + 1).trim()));
  }
  return { byName, all };
}

export function sarifUriWarnings(
  uris: SarifUris,
  servers: readonly string[],
  formats: readonly string[],
  cwd = process.cwd(),
): Shown[] {
  const names = new Set(servers);
  const out: Shown[] = [];
  if (!formats.includes('sarif')) out.push(msg`--sarif-uri has no effect without --format sarif`);
  const known = [...names].slice(0, 10).map((n) => msg`"${show.name(n)}"`);
  for (const name of uris.byName.keys()) {
    if (!names.has(name))
      out.push(
        msg`--sarif-uri: no server is named "${show.name(name)}" (servers: ${known.length ? joinShown(known, ', ') : 'none'})`,
      );
  }
  for (const file of new Set([...uris.byName.values(), ...(uris.all === undefined ? [] : [uris.all])])) {
    if (!existsSync(path.join(cwd, file)))
      out.push(
        msg`--sarif-uri: ${show.path(file)} is not a file under ${show.path(cwd)}; code scanning will show no code for its alerts`,
      );
  }
  return out;
}
