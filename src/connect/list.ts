/**
 * `tools/list`, every page, raw. A page is salvaged entry by entry (one bad tool must not hide
 * the others), and pagination is bounded: a server may hand back the same cursor forever, and
 * what is kept of all pages together stays within the server's memory budget.
 */
import { METHOD_NOT_FOUND } from './protocol.js';
import { LIMITS } from '../model/limits.js';
import { DEFINITION, definitionHashes } from '../model/definition-hash.js';
import { bounded, boundedDescription, DESCRIPTION_LIMIT } from '../model/bounds.js';
import type { Finding } from '../model/schema.js';
import { sizeEstimate } from '../model/budget.js';
import { cursorDigest, KEPT_TOOL_FIELDS, type ServerBudget } from './budget.js';
import { ScanFailure } from './failure.js';
import { asObject, modernMeta, type Session } from './negotiate.js';
import type { RpcClient } from './rpc.js';
import { RULE, type RuleId } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { plural } from '../model/verdicts.js';

export interface ListOptions {
  maxPages: number;
  maxTools: number;
  remainingMs: () => number;
  /** Charged with every kept entry and cursor; listing stops when it runs out. */
  budget: ServerBudget;
}

export interface Listing {
  /** Each entry as the server sent it, with only the fields idemscan reads (long descriptions cut on arrival). */
  tools: Record<string, unknown>[];
  pages: number;
  findings: Finding[];
}

const MAX_ENTRY_FINDINGS = 20;

/** `rpc`: a live connection, or connect/saved.ts's one saved page. */
export async function listTools(rpc: Pick<RpcClient, 'request'>, session: Session, opts: ListOptions): Promise<Listing> {
  const out: Listing = { tools: [], pages: 0, findings: [] };
  // Digests, not cursors: a cursor may be 15 MB, and a new one on every page.
  const seenCursors = new Set<string>();
  let malformed = 0;
  let dropped = 0;
  let cursor: string | undefined;
  for (;;) {
    const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
    if (session.era === 'modern') params._meta = modernMeta(session.version);
    let outcome;
    try {
      outcome = await rpc.request('tools/list', params, opts.remainingMs());
    } catch (err) {
      // Pages already read are real tools: keep them, and say the list is incomplete.
      if (out.pages === 0 || !(err instanceof ScanFailure)) throw err;
      out.findings.push(incomplete(out.pages, err.message));
      break;
    }
    if (!outcome.ok) {
      // A server without tools may say so with "method not found"; that is zero tools, not a failure.
      if (out.pages === 0 && outcome.error.code === METHOD_NOT_FOUND && !session.capabilities?.tools) return out;
      const message = `tools/list failed: ${outcome.error.code} ${bounded(outcome.error.message, LIMITS.quotedChars)}`;
      if (out.pages === 0) throw new ScanFailure('protocol', message);
      out.findings.push(incomplete(out.pages, message));
      break;
    }
    const page = out.pages++;
    const tools = outcome.result.tools;
    if (!Array.isArray(tools)) {
      const message = `tools/list page ${page + 1} has no "tools" array`;
      if (page === 0) throw new ScanFailure('protocol', message);
      out.findings.push(incomplete(page, message));
      break;
    }
    for (const [index, entry] of tools.entries()) {
      const raw = asObject(entry);
      if (!raw || typeof raw.name !== 'string') {
        if (++malformed <= MAX_ENTRY_FINDINGS) {
          out.findings.push(finding(RULE.malformedToolEntry, `tools/list page ${page + 1}, entry ${index}: ${raw ? 'no string "name"' : 'not an object'}; skipped`, { evidence: `tools[${index}]` }));
        }
        continue;
      }
      if (out.tools.length >= opts.maxTools) {
        dropped++;
        continue;
      }
      const kept = trimmed(raw);
      if (!opts.budget.charge(sizeEstimate(kept))) break;
      out.tools.push(kept);
    }
    if (opts.budget.exhausted) {
      out.findings.push(opts.budget.finding(`stopped listing on page ${page + 1} after ${plural(out.tools.length, 'tool')}: the tools after them are missing`));
      break;
    }
    const next = outcome.result.nextCursor;
    const more = next !== undefined && next !== null && next !== '';
    if (out.tools.length >= opts.maxTools && (dropped > 0 || more)) {
      out.findings.push(bound(RULE.toolListTruncated, `stopped at ${plural(opts.maxTools, 'tool')}`));
      break;
    }
    if (!more) break;
    if (typeof next !== 'string') {
      out.findings.push(bound(RULE.paginationInvalidCursor, `nextCursor is a ${typeof next}, not a string; stopped`));
      break;
    }
    const digest = cursorDigest(next);
    if (seenCursors.has(digest)) {
      out.findings.push(bound(RULE.paginationLoop, `the server returned cursor it had already given after page ${page + 1}; stopped`));
      break;
    }
    if (out.pages >= opts.maxPages) {
      out.findings.push(bound(RULE.paginationBound, `stopped after ${opts.maxPages} pages (--max-pages)`));
      break;
    }
    // The cursor is held and sent back: a 15 MB one costs what it weighs.
    if (!opts.budget.charge(sizeEstimate(next))) {
      out.findings.push(opts.budget.finding(`page ${page + 1} returned a cursor of ${next.length} characters; stopped listing: the tools of later pages are missing`));
      break;
    }
    seenCursors.add(digest);
    cursor = next;
  }
  if (malformed > MAX_ENTRY_FINDINGS) {
    out.findings.push(finding(RULE.malformedToolEntry, `${malformed - MAX_ENTRY_FINDINGS} more malformed entries skipped (${malformed} in all)`, { evidence: 'tools' }));
  }
  return out;
}

/**
 * Keeps a page's memory in check across many pages: only the fields classification and the report
 * read (not `outputSchema`, `icons`, `_meta`), and long descriptions cut on arrival; the
 * definition's hashes (docs/DEFINITION-HASH.md) are taken first, from the entry as received.
 */
function trimmed(raw: Record<string, unknown>): Record<string, unknown> {
  // Hashed as received: before the description is cut and while outputSchema is still here.
  const kept: Record<string, unknown> & { [DEFINITION]?: unknown } = { [DEFINITION]: definitionHashes(raw) };
  for (const field of KEPT_TOOL_FIELDS) if (Object.hasOwn(raw, field)) kept[field] = raw[field];
  if (typeof kept.description === 'string' && kept.description.length > DESCRIPTION_LIMIT) kept.description = boundedDescription(kept.description);
  return kept;
}

function incomplete(pagesRead: number, why: string): Finding {
  return finding(RULE.toolListIncomplete, `listing stopped after ${plural(pagesRead, 'page')}: ${why}; the tools of those pages are reported, later ones are missing`, { evidence: 'tools/list' });
}

function bound(rule: RuleId, message: string): Finding {
  return finding(rule, message, { evidence: 'tools/list' });
}
