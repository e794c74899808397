/** The one server of `audit` and `probe`: a command after `--`, or an http(s) URL, with its flags. */
import path from 'node:path';
import { InputError } from '../model/input-error.js';
import type { Target } from '../targets/types.js';
import { msg, show } from '../render/message.js';

/** The flags of audit and probe that make their server (cli/flags.ts declares them). */
export interface ServerFlags {
  header?: string[];
  env?: string[];
  sse?: boolean;
  name?: string;
}

export function auditTarget(words: string[], flags: ServerFlags): Target {
  const [first, ...rest] = words;
  if (!first) throw new InputError('audit needs a command (after --), a URL, or --tools FILE');
  const scheme = urlScheme(first);
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    // Not a command to spawn: a URL idemscan cannot connect to (ftp://, file://, ws://).
    throw new InputError(
      msg`"${show.url(first)}": not an http(s) URL (${show.name(scheme)}:); audit takes an http(s) URL, or a command after --`,
    );
  }
  if (scheme !== undefined) {
    if (!URL.canParse(first)) throw new InputError(msg`"${show.url(first)}" is not a URL`);
    if (rest.length > 0) throw new InputError('a URL target takes no further arguments');
    return {
      name: flags.name ?? new URL(first).host,
      source: 'command line',
      kind: 'remote',
      transport: flags.sse ? 'sse' : 'http',
      url: first,
      headers: pairs(flags.header ?? [], ':', '--header'),
    };
  }
  return {
    name: flags.name ?? path.basename(first),
    source: 'command line',
    kind: 'command',
    transport: 'stdio',
    command: first,
    args: rest,
    env: pairs(flags.env ?? [], '=', '--env'),
  };
}

function pairs(items: string[], sep: string, flag: string): Record<string, string> {
  return Object.fromEntries(
    items.map((item) => {
      const at = item.indexOf(sep);
      if (at <= 0) throw new InputError(msg`${flag} "${show.name(item)}": expected NAME${sep}value`);
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    }),
  );
}

/** Any `scheme://` (not a Windows drive `C:\`); the schemes idemscan connects to are http(s). */
export function urlScheme(word: string): string | undefined {
  const colon = word.indexOf('://');
  if (colon <= 0) return undefined;
  const scheme = word.slice(0, colon);
  for (let i = 0; i < scheme.length; i++) {
    const c = scheme.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (!letter && !(i > 0 && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46))) return undefined;
  }
  return scheme.toLowerCase();
}
