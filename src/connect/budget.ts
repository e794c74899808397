/**
 * The memory budget of one server: everything kept from it while it is scanned (tool entries with
 * their input schemas, cursors, capabilities, serverInfo, negotiation notes) is charged here, so
 * that a server sending 64 pages of 15 MB schemas cannot make idemscan hold a gigabyte.
 *
 * Sizes are estimates of the heap a parsed value takes (sizeEstimate), not of its JSON: `[{},{},...]`
 * parses to about 20 times its JSON size. Each kept value is measured once.
 */
import { LIMITS } from '../model/limits.js';
import { createHash } from 'node:crypto';
import { bounded, boundedObject, serverInfoOf } from '../model/bounds.js';
import { sizeEstimate } from '../model/budget.js';
import type { Finding } from '../model/schema.js';
import type { Negotiated } from './negotiate.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';

/** What one server may make us keep, in estimated heap bytes. */
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

/**
 * Objects and arrays one message may hold. Parsed, an empty object takes ~64 bytes: 16 MB of
 * `[{},{},...]` would be 300 MB before anything could be measured, so the frame is refused first.
 * A page of 5,000 tools with ordinary schemas holds about 300,000.
 */
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

/** Of a tool entry, what classification and the report read; `icons`, `_meta`, `outputSchema` go. */
export const KEPT_TOOL_FIELDS = ['name', 'title', 'description', 'annotations', 'inputSchema'] as const;

/**
 * The session as kept: capabilities and serverInfo are cut to what the report shows when they are
 * large (their `tools.idempotency` and `tools` still read as sent), each note to 1,000 characters.
 */
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
