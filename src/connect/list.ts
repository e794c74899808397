/** Pages salvaged entry by entry; pagination is bounded (a cursor may repeat forever) and charged to the budget. */
import { METHOD_NOT_FOUND } from './protocol.js';
import { LIMITS } from '../model/limits.js';
import { DEFINITION, DEFINITION_FIELDS, definitionHashes } from '../model/definition-hash.js';
import { bounded, boundedDescription, DESCRIPTION_LIMIT } from '../model/bounds.js';
import type { Finding } from '../model/schema.js';
import { sizeEstimate } from '../model/budget.js';
import { cursorDigest, KEPT_TOOL_FIELDS, type ServerBudget } from './budget.js';
import { ScanFailure } from './failure.js';
import { asObject, modernMeta, type Negotiated } from './negotiate.js';
import type { RpcClient } from './rpc.js';
import { RULE, type RuleId } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { plural } from '../model/verdicts.js';

export interface ListOptions {
  maxPages: number;
  maxTools: number;
  remainingMs: () => number;
  budget: ServerBudget;
  keepSent?: boolean;
}

export interface Listing {
  /** Only the fields idemscan reads, long descriptions cut on arrival. */
  tools: Record<string, unknown>[];
  /** With `keepSent`: every entry read, as sent, but those past `maxTools` or the budget. */
  sent?: unknown[];
  pages: number;
  findings: Finding[];
}

const MAX_ENTRY_FINDINGS = 20;

interface ListState {
  out: Listing;
  /** Digests, not cursors: a cursor may be 15 MB, and a new one on every page. */
  seenCursors: Set<string>;
  malformed: number;
  dropped: number;
}

interface Page {
  index: number;
  tools: unknown[];
  next: unknown;
}

/** `rpc`: a live connection, or saved.ts's one page; each stop is said as a finding. */
export async function listTools(
  rpc: Pick<RpcClient, 'request'>,
  session: Negotiated,
  opts: ListOptions,
): Promise<Listing> {
  const state: ListState = {
    out: { tools: [], pages: 0, findings: [], ...(opts.keepSent ? { sent: [] } : {}) },
    seenCursors: new Set(),
    malformed: 0,
    dropped: 0,
  };
  let cursor: string | undefined;
  for (;;) {
    const page = await readPage(rpc, session, cursor, state, opts);
    if (page === 'no tools') return state.out;
    if (!page) break;
    keepEntries(page, state, opts);
    cursor = followCursor(page, state, opts);
    if (cursor === undefined) break;
  }
  if (state.malformed > MAX_ENTRY_FINDINGS) {
    const more = state.malformed - MAX_ENTRY_FINDINGS;
    state.out.findings.push(
      finding(RULE.malformedToolEntry, `${more} more malformed entries skipped (${state.malformed} in all)`, {
        evidence: 'tools',
      }),
    );
  }
  return state.out;
}

/** The first page's failure is thrown; a later one keeps the pages read, with a finding. -32601: no tools. */
async function readPage(
  rpc: Pick<RpcClient, 'request'>,
  session: Negotiated,
  cursor: string | undefined,
  { out }: ListState,
  opts: ListOptions,
): Promise<Page | 'no tools' | undefined> {
  const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
  if (session.era === 'modern') params._meta = modernMeta(session.version);
  const stop = (message: string) => {
    if (out.pages === 0) throw new ScanFailure('protocol', message);
    out.findings.push(incomplete(out.pages, message));
    return undefined;
  };
  let outcome;
  try {
    outcome = await rpc.request('tools/list', params, opts.remainingMs());
  } catch (err) {
    if (out.pages === 0 || !(err instanceof ScanFailure)) throw err;
    return stop(err.message);
  }
  if (!outcome.ok) {
    if (out.pages === 0 && outcome.error.code === METHOD_NOT_FOUND && !session.capabilities?.tools) return 'no tools';
    return stop(`tools/list failed: ${outcome.error.code} ${bounded(outcome.error.message, LIMITS.quotedChars)}`);
  }
  const index = out.pages;
  const tools = outcome.result.tools;
  if (!Array.isArray(tools)) {
    const message = `tools/list page ${index + 1} has no "tools" array`;
    if (index === 0) throw new ScanFailure('protocol', message);
    out.pages++; // it was read, though it held nothing
    out.findings.push(incomplete(index, message));
    return undefined;
  }
  out.pages++;
  return { index, tools, next: outcome.result.nextCursor };
}

/** Salvaged one by one: a bad tool does not hide the others. */
function keepEntries(page: Page, state: ListState, opts: ListOptions): void {
  const { out } = state;
  for (const [index, entry] of page.tools.entries()) {
    const raw = asObject(entry);
    if (!raw || typeof raw.name !== 'string') {
      // Saved as sent too: --tools of the saved list then finds the same malformed entry.
      const sent = out.sent && (raw ? definitionFields(raw) : entry);
      if (sent !== undefined && opts.budget.charge(sizeEstimate(sent))) out.sent!.push(sent);
      if (++state.malformed <= MAX_ENTRY_FINDINGS) {
        const what = raw ? 'no string "name"' : 'not an object';
        out.findings.push(
          finding(RULE.malformedToolEntry, `tools/list page ${page.index + 1}, entry ${index}: ${what}; skipped`, {
            evidence: `tools[${index}]`,
          }),
        );
      }
      continue;
    }
    if (out.tools.length >= opts.maxTools) {
      state.dropped++;
      continue;
    }
    const kept = trimmed(raw);
    // What is held is charged: the entry as sent too, when it is kept for --save-tools.
    const sent = out.sent && definitionFields(raw);
    if (!opts.budget.charge(sizeEstimate(sent ?? kept))) break;
    out.tools.push(kept);
    if (sent) out.sent!.push(sent);
  }
}

function followCursor(page: Page, state: ListState, opts: ListOptions): string | undefined {
  const { out } = state;
  const stop = (f: Finding) => void out.findings.push(f);
  const n = page.index + 1;
  if (opts.budget.exhausted)
    return stop(
      opts.budget.finding(
        `stopped listing on page ${n} after ${plural(out.tools.length, 'tool')}: the tools after them are missing`,
      ),
    );
  const next = page.next;
  const more = next !== undefined && next !== null && next !== '';
  if (out.tools.length >= opts.maxTools && (state.dropped > 0 || more))
    return stop(bound(RULE.toolListTruncated, `stopped at ${plural(opts.maxTools, 'tool')}`));
  if (!more) return undefined;
  if (typeof next !== 'string')
    return stop(bound(RULE.paginationInvalidCursor, `nextCursor is a ${typeof next}, not a string; stopped`));
  const digest = cursorDigest(next);
  if (state.seenCursors.has(digest))
    return stop(bound(RULE.paginationLoop, `the server returned cursor it had already given after page ${n}; stopped`));
  if (out.pages >= opts.maxPages)
    return stop(bound(RULE.paginationBound, `stopped after ${opts.maxPages} pages (--max-pages)`));
  // The cursor is held and sent back: a 15 MB one costs what it weighs.
  if (!opts.budget.charge(sizeEstimate(next))) {
    return stop(
      opts.budget.finding(
        `page ${n} returned a cursor of ${next.length} characters; stopped listing: the tools of later pages are missing`,
      ),
    );
  }
  state.seenCursors.add(digest);
  return next;
}

/** Only the fields classification and the report read; the hashes (docs/DEFINITION-HASH.md) are taken first. */
function trimmed(raw: Record<string, unknown>): Record<string, unknown> {
  // Hashed as received: before the description is cut and while outputSchema is still here.
  const kept: Record<string, unknown> & { [DEFINITION]?: unknown } = { [DEFINITION]: definitionHashes(raw) };
  for (const field of KEPT_TOOL_FIELDS) if (Object.hasOwn(raw, field)) kept[field] = raw[field];
  if (typeof kept.description === 'string' && kept.description.length > DESCRIPTION_LIMIT)
    kept.description = boundedDescription(kept.description);
  return kept;
}

/** The fields a definition is made of (DEFINITION_FIELDS), as sent: what --save-tools writes of a tool. */
function definitionFields(raw: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) if (Object.hasOwn(raw, field)) fields[field] = raw[field];
  return fields;
}

function incomplete(pagesRead: number, why: string): Finding {
  return finding(
    RULE.toolListIncomplete,
    `listing stopped after ${plural(pagesRead, 'page')}: ${why}; the tools of those pages are reported, later ones are missing`,
    { evidence: 'tools/list' },
  );
}

function bound(rule: RuleId, message: string): Finding {
  return finding(rule, message, { evidence: 'tools/list' });
}
