/**
 * How a name the user writes finds a server: `--trust NAME` (the library's `trust`) and a
 * suppression's `server` (compare/suppress.ts). In the ground so that both the scan and the
 * comparisons over saved reports use this one matcher. Every place idemscan shows a server (the
 * progress line, audit's header, the table, `servers[].name`, the `--fail-on` message) shows one
 * of its names: the target's name (the list's key, `--name`, or the command's file name) or, after
 * `audit` without `--name`, what the server calls itself (serverInfo.name). Each of them is
 * accepted, compared without surrounding space or case; the server's own name only where it is the
 * one shown (scan() `trustServerInfo`; a suppression matches `servers[].name`, which is it only
 * then): in a list any server can call itself by another's name.
 */

/** A server's names, as far as they are known: the target's, then the one it gave itself. */
export interface ServerNames {
  target: string;
  serverInfo?: unknown;
}

const normal = (name: string) => name.trim().normalize('NFC').toLowerCase();

/** The names of `server` to compare with: the target's name, and serverInfo.name when it is a string. */
function namesOf(server: ServerNames): string[] {
  const names = [normal(server.target)];
  if (typeof server.serverInfo === 'string' && server.serverInfo.trim() !== '') names.push(normal(server.serverInfo));
  return names;
}

/**
 * The given names, matched against servers one by one; remembers which matched any, so that a
 * name that found no server can be told (most often a typo, or a name the output never showed).
 */
export class NameMatcher {
  private readonly given: Map<string, string>;
  private readonly used = new Set<string>();

  constructor(names: readonly string[] = []) {
    this.given = new Map(names.filter((n) => n.trim() !== '').map((n) => [normal(n), n]));
  }

  /** Whether any given name is one of `server`'s names. */
  matches(server: ServerNames): boolean {
    let hit = false;
    for (const name of namesOf(server)) {
      if (!this.given.has(name)) continue;
      this.used.add(name);
      hit = true;
    }
    return hit;
  }

  /** The given names (as given) that matched no server so far. */
  unmatched(): string[] {
    return [...this.given].filter(([key]) => !this.used.has(key)).map(([, name]) => name);
  }
}
