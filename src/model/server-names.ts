// `--trust NAME` and a suppression's `server`. Any name idemscan shows is accepted, serverInfo's only where
// shown: in a list any server can call itself by another's name.

export interface ServerNames {
  target: string;
  /** Only where it is the name shown. */
  serverInfo?: unknown;
}

const normal = (name: string) => name.trim().normalize('NFC').toLowerCase();

function namesOf(server: ServerNames): string[] {
  const names = [normal(server.target)];
  if (typeof server.serverInfo === 'string' && server.serverInfo.trim() !== '') names.push(normal(server.serverInfo));
  return names;
}

/** Remembers which names matched, so a typo can be told. */
export class NameMatcher {
  private readonly given: Map<string, string>;
  private readonly used = new Set<string>();

  constructor(names: readonly string[] = []) {
    this.given = new Map(names.filter((n) => n.trim() !== '').map((n) => [normal(n), n]));
  }

  matches(server: ServerNames): boolean {
    let hit = false;
    for (const name of namesOf(server)) {
      if (!this.given.has(name)) continue;
      this.used.add(name);
      hit = true;
    }
    return hit;
  }

  unmatched(): string[] {
    return [...this.given].filter(([key]) => !this.used.has(key)).map(([, name]) => name);
  }
}
