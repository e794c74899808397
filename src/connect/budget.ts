/** One server's memory budget, in estimated parsed-heap bytes (sizeEstimate), not JSON bytes: docs/INTERNALS.md. */
import { LIMITS } from '../model/limits.js';
import { createHash } from 'node:crypto';
import { bounded, boundedObject, serverInfoOf } from '../model/bounds.js';
import { sizeEstimate } from '../model/budget.js';
import type { Finding } from '../model/schema.js';
import type { Negotiated } from './negotiate.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';

export class ServerBudget {
  used = 0;
  exhausted = false;

  constructor(readonly limit: number) {}

  /** Charges `bytes` if they fit; false (and nothing charged) once they would not. */
  charge(bytes: number): boolean {
    if (this.exhausted || this.used + bytes > this.limit) {
      this.exhausted = true;
      return false;
    }
    this.used += bytes;
    return true;
  }

  finding(where: string): Finding {
    return finding(
      RULE.memoryBudget,
      `this server sent more than idemscan keeps of one server (${mib(this.limit)} MiB, maxServerBytes); ${where}`,
      { evidence: 'tools/list' },
    );
  }
}

const mib = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 10) / 10);

/** A cursor is opaque: the seen set keeps a digest of it, not 15 MB of it. */
export function cursorDigest(cursor: string): string {
  return createHash('sha256').update(cursor).digest('base64');
}

/** An empty object parses to ~64 bytes: 16 MB of `[{},{},...]` is refused before it is parsed. */
export const MAX_FRAME_NODES = 1_000_000;

/** `{` and `[` bytes in buf[from, to): an upper bound on the objects and arrays they parse to. */
export function countOpeners(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = buf[i];
    if (b === 0x7b || b === 0x5b) n++;
  }
  return n;
}

export const KEPT_TOOL_FIELDS = ['name', 'title', 'description', 'annotations', 'inputSchema'] as const;

/** Large capabilities and serverInfo are cut to what the report shows; each note to 1,000 characters. */
export function keptSession(session: Negotiated): Negotiated {
  const caps = session.capabilities;
  const capabilities =
    caps && sizeEstimate(caps) > 64 * 1024
      ? { ...boundedObject(caps, LIMITS.capabilitiesJson), tools: toolsCapability(caps.tools) }
      : caps;
  const info = session.serverInfo;
  const serverInfo = info && sizeEstimate(info) > 16 * 1024 ? serverInfoOf(info) : info;
  return { ...session, capabilities, serverInfo, notes: session.notes.map((n) => bounded(n, 1_000)) };
}

function toolsCapability(tools: unknown): Record<string, unknown> | undefined {
  if (!tools || typeof tools !== 'object' || Array.isArray(tools)) return undefined;
  const t = tools as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (t.idempotency === true || (t.idempotency && typeof t.idempotency === 'object')) out.idempotency = {};
  if (typeof t.listChanged === 'boolean') out.listChanged = t.listChanged;
  return out;
}
