/** `registry pull`: a failed page ends the pull, keeping what was read (`incomplete`). Never prints. */
import { stat } from 'node:fs/promises';
import { MAX_JSON_DEPTH, parseJson } from '../../model/bounded-input.js';
import { clip } from '../../model/cut.js';
import { LIMITS } from '../../model/limits.js';
import { MAX_TARGET_FILE_BYTES, readBounded } from '../../targets/load.js';
import { addPage, newPullState, readPullFile, type PullFile, type PullState } from './registry-latest.js';
import { InputError } from '../../model/input-error.js';
import { msg, show } from '../../render/message.js';
import { apiUrl, baseUrlOf, getJson } from './registry-fetch.js';

export interface PullOptions {
  baseUrl?: string;
  /** RFC 3339: ask only for servers updated since (default: the earlier pull's `pulledAt`). */
  updatedSince?: string;
  /** The target file: an earlier pull there is updated. */
  out: string;
}

export type PullEvent =
  /** Only what changed since `since` is asked for; `kept`: the servers of the earlier pull in `out`. */
  | { type: 'since'; since: string; kept?: number }
  | { type: 'page'; page: number; kept: number; skipped: number; gone: number }
  | { type: 'skipped'; name: string; reason: string };

export interface PullOutcome {
  text: string;
  /** Set when the text is larger than a scan reads from one file: that bound, in bytes. */
  oversize?: number;
  servers: number;
  pages: number;
  seconds: number;
  deleted: number;
  deprecated: number;
  skipped: number;
  /** Why the pull stopped early (raw text: escaped where it is printed); what was read is kept. */
  error?: string;
}

/** 2,000 pages of 100: ten times today's registry. */
const MAX_PAGES = 2_000;
const MAX_SERVERS = 200_000;
/** What the kept servers may take as JSON: four times what a scan reads from one target file. */
const MAX_KEPT_BYTES = 4 * MAX_TARGET_FILE_BYTES;
const PULL_DEADLINE_MS = 30 * 60_000;
const PAGE_LIMIT = 100;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export async function pullRegistry(options: PullOptions, onEvent: (e: PullEvent) => void): Promise<PullOutcome> {
  const base = baseUrlOf(options.baseUrl);
  const previous = await previousPull(options.out, base);
  const since = sinceOf(options.updatedSince) ?? previous?.pulledAt;
  const pulledAt = new Date().toISOString();
  const state = newPullState(previous?.kept);
  if (since) onEvent({ type: 'since', since, kept: previous?.kept.size });
  const t0 = performance.now();
  const { pages, error } = await readPages(base, since, state, (page) =>
    onEvent({
      type: 'page',
      page,
      kept: state.kept.size,
      skipped: state.skipped.length,
      gone: state.deleted + state.deprecated,
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const s of state.skipped) onEvent({ type: 'skipped', name: s.name, reason: s.reason });
  // An incomplete pull keeps its older mark, so the next one asks again for what it missed.
  const mark = error ? (previous?.pulledAt ?? new Date(0).toISOString()) : pulledAt;
  const text = fileText(pullFile(base, mark, state, error));
  return {
    text,
    // A scan reads target files up to this size: said now, not when the census job starts.
    ...(Buffer.byteLength(text) > MAX_TARGET_FILE_BYTES ? { oversize: MAX_TARGET_FILE_BYTES } : {}),
    servers: state.kept.size,
    pages,
    seconds,
    deleted: state.deleted,
    deprecated: state.deprecated,
    skipped: state.skipped.length,
    ...(error ? { error } : {}),
  };
}

/** `updatedSince`, checked and normalized. */
function sinceOf(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  if (Number.isNaN(Date.parse(given)))
    throw new InputError(msg`--updated-since ${show.name(given)}: not a time (e.g. 2026-11-30T00:00:00Z)`);
  return new Date(given).toISOString();
}

function pullFile(base: URL, pulledAt: string, state: PullState, error: string | undefined) {
  const file: PullFile & { incomplete?: string } = {
    description: `The latest active version of each server of the MCP Registry at ${base.href}, as idemscan registry pull read it.`,
    baseUrl: base.href,
    pulledAt,
    counts: {
      servers: state.kept.size,
      deleted: state.deleted,
      deprecated: state.deprecated,
      older: state.older,
      skipped: state.skipped.length,
    },
    ...(error ? { incomplete: error } : {}),
    servers: [...state.kept.values()],
    ...(state.skipped.length ? { skipped: state.skipped } : {}),
  };
  return file;
}

/** One server a line: compact (a scan reads up to MAX_TARGET_FILE_BYTES), and a week's changes diff line by line. */
function fileText(file: PullFile & { incomplete?: string }): string {
  const { servers, skipped, ...head } = file;
  const list = (items: unknown[]) => `[\n${items.map((x) => JSON.stringify(x)).join(',\n')}\n]`;
  return `${JSON.stringify(head).slice(0, -1)},"servers":${list(servers)}${skipped ? `,"skipped":${list(skipped)}` : ''}}\n`;
}

/** The earlier pull in `--out`, when there is one: the list to update. */
async function previousPull(out: string, base: URL) {
  if (!(await stat(out).catch(() => undefined))) return undefined;
  const fail = (why: string) => new InputError(`${why}; give another file`, { field: '--out', file: out });
  // Bounded like any target file: --out may name a device or a huge file.
  const text = await readBounded(out, '--out');
  // A pull file is a target file scan reads: nested as deep as one may be.
  const parsed = parseJson(text, { maxBytes: MAX_TARGET_FILE_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in parsed) throw fail(parsed.why === 'syntax' ? 'exists and is not JSON' : parsed.error);
  const got = readPullFile(parsed.value);
  if ('error' in got) throw fail(got.error);
  if (got.baseUrl && got.baseUrl !== base.href)
    throw new InputError(
      msg`--out ${show.path(out)} was pulled from ${show.url(got.baseUrl)}, not ${show.url(base.href)}: give another file`,
    );
  return got;
}

async function readPages(
  base: URL,
  since: string | undefined,
  state: PullState,
  onPage: (page: number) => void,
): Promise<{ pages: number; error?: string }> {
  const cursors = new Set<string>();
  const deadline = AbortSignal.timeout(PULL_DEADLINE_MS);
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) return { pages: page - 1, error: `page ${page}: more than ${MAX_PAGES} pages` };
    const got = await getJson(pageUrl(base, cursor, since), { signal: deadline });
    if (!got.ok)
      return {
        pages: page - 1,
        error: `page ${page}: ${deadline.aborted ? `the pull passed its bound of ${PULL_DEADLINE_MS / 60_000} min` : got.error}`,
      };
    const doc = got.value;
    if (!isObj(doc) || !Array.isArray(doc.servers))
      return { pages: page - 1, error: `page ${page}: no "servers" list in the answer` };
    addPage(state, doc.servers, page);
    onPage(page);
    if (state.kept.size > MAX_SERVERS) return { pages: page, error: `page ${page}: more than ${MAX_SERVERS} servers` };
    if (state.bytes > MAX_KEPT_BYTES)
      return { pages: page, error: `page ${page}: the servers kept pass ${MAX_KEPT_BYTES / 1024 / 1024} MiB` };
    const next = nextCursor(doc, cursors);
    if (next === undefined) return { pages: page };
    if ('error' in next) return { pages: page, error: `page ${page}: ${next.error}` };
    cursor = next.cursor;
  }
}

function pageUrl(base: URL, cursor: string | undefined, since: string | undefined): URL {
  const url = apiUrl(base, '/v0.1/servers');
  url.searchParams.set('limit', String(PAGE_LIMIT));
  // URLSearchParams percent-encodes: a cursor is opaque and may hold '&', '=' or '/'.
  if (cursor !== undefined) url.searchParams.set('cursor', cursor);
  if (since) url.searchParams.set('updated_since', since);
  return url;
}

/** The page's `metadata.nextCursor`: none at the end, an error for a bad one or one seen before. */
function nextCursor(
  doc: Record<string, unknown>,
  seen: Set<string>,
): { cursor: string } | { error: string } | undefined {
  const next = isObj(doc.metadata) ? doc.metadata.nextCursor : undefined;
  if (next === undefined || next === null || next === '') return undefined;
  if (typeof next !== 'string' || next.length > 1_000)
    return { error: 'metadata.nextCursor is not a cursor (a string up to 1,000 characters)' };
  if (seen.has(next))
    return { error: `cursor ${JSON.stringify(clip(next, LIMITS.shown.name))} seen twice (the registry's pages loop)` };
  seen.add(next);
  return { cursor: next };
}
