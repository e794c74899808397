/** The one server of `audit` and `probe`: a command after `--`, or an http(s) URL, with its flags. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../model/input-error.js';
import { entryProblem } from '../targets/names.js';
import { checkTarget } from './scan/scan-input.js';
import type { Target } from '../targets/types.js';
import { msg, show } from '../render/message.js';

/** How audit and probe make their one server: its headers or environment, transport and name. */
export interface ServerSettings {
  header?: string[];
  env?: string[];
  sse?: boolean;
  name?: string;
}

export function auditTarget(words: string[], flags: ServerSettings): Target {
  const [first, ...rest] = words;
  if (!first) throw new InputError('audit needs a command (after --), a URL, or --tools FILE');
  const scheme = urlScheme(first);
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new InputError(
      msg`"${show.url(first)}": not an http(s) URL (${show.name(scheme)}:); audit takes an http(s) URL, or a command after --`,
    );
  }
  const bare = scheme === undefined && !existsSync(first) ? schemelessUrl(first) : undefined;
  // `localhost:3000/mcp` would be spawned as a program (ENOENT); no file of that name is here.
  if (bare !== undefined)
    throw new InputError(msg`"${show.url(first)}" is a URL without its scheme: give ${show.url(bare)}`);
  if (scheme !== undefined) {
    if (!URL.canParse(first)) throw new InputError(msg`"${show.url(first)}" is not a URL`);
    if (rest.length > 0) throw new InputError('a URL target takes no further arguments');
    return checkTarget({
      name: flags.name ?? new URL(first).host,
      source: 'command line',
      transport: flags.sse ? 'sse' : 'http',
      url: first,
      headers: checkedPairs(flags.header ?? [], ':', '--header', 'headers'),
    });
  }
  return checkTarget({
    name: flags.name ?? path.basename(first),
    source: 'command line',
    transport: 'stdio',
    command: first,
    args: rest,
    env: checkedPairs(flags.env ?? [], '=', '--env', 'env'),
  });
}

/** `NAME<sep>value` flags as a record, each name checked as a target file's would be. */
function checkedPairs(items: string[], sep: string, flag: string, kind: 'env' | 'headers'): Record<string, string> {
  const record = pairs(items, sep, flag);
  const problem = entryProblem(record, kind);
  if (problem) throw new InputError(msg`${flag} "${show.name(problem[0])}": ${problem[1]}`);
  return record;
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

/** The URL to suggest for `localhost:3000/mcp`; loops, not a regex, as the word can be long. */
export function schemelessUrl(word: string): string | undefined {
  if (word.length > 2048 || urlScheme(word) !== undefined) return undefined;
  const slash = word.indexOf('/');
  const authority = slash < 0 ? word : word.slice(0, slash);
  const colon = authority.lastIndexOf(':');
  const host = colon < 0 ? authority : authority.slice(0, colon);
  const port = colon < 0 ? undefined : authority.slice(colon + 1);
  if (port !== undefined && !(port.length >= 1 && port.length <= 5 && every(port, isDigit))) return undefined;
  // `server.js` alone is as likely a file name as a host: a bare host needs a port or a path.
  if (port === undefined && slash < 0) return undefined;
  const kind = hostKind(host);
  if (kind === undefined) return undefined;
  return `${kind === 'name' ? 'https' : 'http'}://${word}`;
}

function hostKind(host: string): 'local' | 'name' | undefined {
  if (host.toLowerCase() === 'localhost') return 'local';
  const labels = host.split('.');
  if (labels.length < 2 || labels.some((l) => l.length === 0 || l.length > 63)) return undefined;
  if (labels.every((l) => every(l, isDigit))) return labels.length === 4 ? 'local' : undefined;
  const ok = labels.every((l) => every(l, (c) => isDigit(c) || isLetter(c) || c === 45) && !l.startsWith('-'));
  return ok && every(labels[labels.length - 1]!, isLetter) ? 'name' : undefined;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

function every(s: string, test: (c: number) => boolean): boolean {
  for (let i = 0; i < s.length; i++) if (!test(s.charCodeAt(i))) return false;
  return true;
}
