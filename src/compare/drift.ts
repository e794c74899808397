/** `--baseline`: a fresh report's drift from its lock, directions as in diff.ts; `--fail-on drift` fails on any. */
import type { Drift, DriftChange, Report, ServerReport, ToolReport } from '../model/schema.js';
import { changedFields, descriptionDiff } from './definition.js';
import { compareText, compareVerdicts, groupByName, hintDirection } from './diff.js';
import type { LockFile, LockServer, LockTool } from '../model/lock.js';
import { HINT_NAMES } from '../model/verdicts.js';

export function driftOf(report: Report, lock: LockFile, baseline: string): Drift {
  const fold = new DriftFold(lockedServers(lock), baseline, !!report.options.shard);
  for (const s of report.servers) fold.add(s);
  return fold.drift();
}

/** Parsed a server at a time: a 10,000-server lock parsed whole held ~70 MB of heap through the scan. */
export interface LockedServers {
  lockedAt: string;
  bytes: Buffer;
  /** Each server's JSON as [start, end) in `bytes`, by name. */
  servers: ReadonlyMap<string, readonly [number, number]>;
}

/** A lock already parsed (the library's driftOf), its servers written into one block. */
export function lockedServers(lock: LockFile): LockedServers {
  const texts = lock.servers.map((s) => JSON.stringify(s));
  const bytes = Buffer.allocUnsafeSlow(texts.reduce((n, t) => n + Buffer.byteLength(t), 0));
  const servers = new Map<string, readonly [number, number]>();
  let at = 0;
  texts.forEach((text, i) => {
    const end = at + bytes.write(text, at);
    servers.set(lock.servers[i]!.name, [at, end]);
    at = end;
  });
  return { lockedAt: lock.lockedAt, bytes, servers };
}

const parsed = (lock: LockedServers, [start, end]: readonly [number, number]) =>
  JSON.parse(lock.bytes.toString('utf8', start, end)) as LockServer;

/** A fold, so a spooled scan compares without holding its servers; a name scanned twice counts as its last. */
export class DriftFold {
  private readonly scanned = new Map<string, DriftChange[]>();

  /** `sharded`: one shard scans some of the locked servers, so the others are not gone. */
  constructor(
    private readonly lock: LockedServers,
    private readonly baseline: string,
    private readonly sharded: boolean,
  ) {}

  add(n: ServerReport): void {
    const o = this.lock.servers.get(n.name);
    this.scanned.set(
      n.name,
      o === undefined
        ? [{ kind: 'server-added', server: n.name, tools: n.tools.length }]
        : serverDrift(parsed(this.lock, o), n),
    );
  }

  drift(): Drift {
    const changes: DriftChange[] = [];
    const locked = this.lock.servers;
    for (const name of [...new Set([...locked.keys(), ...this.scanned.keys()])].sort(compareText)) {
      const mine = this.scanned.get(name);
      if (mine) changes.push(...mine);
      else if (!this.sharded)
        changes.push({
          kind: 'server-removed',
          server: name,
          tools: parsed(this.lock, locked.get(name)!).tools.length,
        });
    }
    return { baseline: this.baseline, lockedAt: this.lock.lockedAt, drifted: changes.length > 0, changes };
  }
}

function serverDrift(o: LockServer, n: ServerReport): DriftChange[] {
  const server = n.name;
  if (n.status === 'failed') {
    return o.tools.length === 0
      ? []
      : [
          {
            kind: 'server-failed',
            server,
            ...(n.failure ? { failure: `${n.failure.kind}: ${n.failure.message}` } : {}),
          },
        ];
  }
  const before = groupByName(o.tools);
  const after = groupByName(n.tools);
  const changes: DriftChange[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(compareText)) {
    const olds = before.get(name) ?? [];
    const news = after.get(name) ?? [];
    const count = Math.max(olds.length, news.length);
    for (let i = 0; i < count; i++) {
      const subject = { server, tool: name, ...(count > 1 ? { occurrence: i + 1 } : {}) };
      const ot = olds[i];
      const nt = news[i];
      if (!ot) changes.push({ kind: 'tool-added', ...subject, verdict: nt!.verdict });
      else if (!nt) changes.push({ kind: 'tool-removed', ...subject, verdict: ot.verdict });
      else changes.push(...toolDrift(subject, ot, nt));
    }
  }
  return changes;
}

type Subject = { server: string; tool: string; occurrence?: number };

function toolDrift(subject: Subject, o: LockTool, n: ToolReport): DriftChange[] {
  const changes: DriftChange[] = [];
  // A definition without a hash on either side cannot be shown unchanged: it is listed.
  const fields = changedFields(o, n, false);
  if (fields) {
    const lines = fields.includes('description') ? descriptionDiff(o.description, n.description) : undefined;
    changes.push({ kind: 'definition-changed', ...subject, fields, ...(lines ? { descriptionDiff: lines } : {}) });
  }
  for (const hint of HINT_NAMES) {
    if (hintDirection(hint, o.hints, n.annotations) !== 'worse') continue;
    changes.push({ kind: 'hint-weakened', ...subject, hint, from: raw(o.hints, hint), to: raw(n.annotations, hint) });
  }
  if (compareVerdicts(o.verdict, n.verdict) === 'worse')
    changes.push({ kind: 'verdict-worse', ...subject, from: o.verdict, to: n.verdict });
  return changes;
}

function raw(values: Record<string, unknown> | undefined, hint: string): string | undefined {
  if (!values || !Object.hasOwn(values, hint)) return undefined;
  return JSON.stringify(values[hint]) ?? String(values[hint]);
}
