/** Where users keep what is theirs; under --sandbox each is hidden and nothing under one is bound back. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDirectory } from '../targets/file-kind.js';

/** Homes of system accounts that are the system itself (`bin` at /bin, `sys` at /dev, `/`): never hidden. */
const SYSTEM = [
  '/bin',
  '/sbin',
  '/usr',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/dev',
  '/proc',
  '/sys',
  '/boot',
];

/** NSS-only accounts (LDAP) are not enumerated: their homes are usually under /home, hidden anyway. */
export function passwdHomes(file = '/etc/passwd'): string[] {
  let text: string;
  try {
    // The system's own file, which only root writes: read as it is, not through io/read.ts.
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const home = line.split(':')[5];
    if (!home || !path.isAbsolute(home)) continue;
    const dir = path.resolve(home);
    if (dir === '/' || SYSTEM.some((s) => dir === s || dir.startsWith(s + '/')) || !isDirectory(dir)) continue;
    out.add(dir);
  }
  return [...out];
}

let cached: string[] | undefined;

/** /home, /root, the passwd homes and HOME (absolute only), read once per process. */
export function homeDirs(home: string | undefined): string[] {
  cached ??= ['/home', '/root', ...passwdHomes()];
  return [...cached, ...(home && path.isAbsolute(home) ? [path.resolve(home)] : [])];
}
