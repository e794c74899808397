/**
 * `idemscan registry pull`: pages the MCP Registry's `GET /v0.1/servers` (its opaque
 * `metadata.nextCursor`, URL-encoded, until it is absent), keeps the latest active version of each
 * server (registry-latest.ts) and writes a target file `scan` reads. With `--updated-since`, or an
 * existing `--out` file (its `pulledAt`), only what changed is asked for and merged into the list.
 * A page that fails (non-2xx, not JSON, over the size bound, a cursor seen twice) ends the pull
 * with an error naming the page, and what was read before is written anyway (`incomplete`).
 * Bounded: pages, kept servers, each page's bytes and time, and the whole pull's time.
 */
import { stat } from 'node:fs/promises';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';
import { clip } from '../model/cut.js';
import { LIMITS } from '../model/limits.js';
import { MAX_TARGET_FILE_BYTES, readBounded } from '../targets/load.js';
import { addPage, newPullState, readPullFile, type PullFile, type PullState } from '../targets/registry-latest.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { note, tell, warn } from './say.js';
import { writeOutputFile } from '../app/output.js';
import { apiUrl, baseUrlOf, getJson } from './registry-fetch.js';

export interface PullFlags {
  baseUrl?: string;
  updatedSince?: string;
  out: string;
  quiet?: boolean;
}

/** 2,000 pages of 100: ten times today's registry. */
const MAX_PAGES = 2_000;
const MAX_SERVERS = 200_000;
/** What the kept servers may take as JSON: four times what a scan reads from one target file. */
const MAX_KEPT_BYTES = 4 * MAX_TARGET_FILE_BYTES;
const PULL_DEADLINE_MS = 30 * 60_000;
const PAGE_LIMIT = 100;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export async function pullCommand(flags: PullFlags): Promise<void> {
  const base = baseUrlOf(flags.baseUrl);
  const previous = await previousPull(flags.out, base);
  let since = flags.updatedSince ?? previous?.pulledAt;
  if (flags.updatedSince !== undefined) {
    if (Number.isNaN(Date.parse(flags.updatedSince)))
      throw new InputError(
        msg`--updated-since ${show.name(flags.updatedSince)}: not a time (e.g. 2026-11-30T00:00:00Z)`,
      );
    since = new Date(flags.updatedSince).toISOString();
  }
  const pulledAt = new Date().toISOString();
  const state = newPullState(previous?.kept);
  if (since) {
    const from = previous ? msg` (${previous.kept.size} servers in ${show.path(flags.out)})` : msg``;
    note(msg`registry pull: only what changed since ${since}${from}`);
  }
  const t0 = performance.now();
  const { pages, error } = await readPages(base, since, state, (page) =>
    note(
      msg`registry page ${page}: ${state.kept.size} servers kept, ${state.skipped.length} skipped, ${state.deleted + state.deprecated} deleted or deprecated`,
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const s of state.skipped) note(msg`skipped ${show.name(s.name)}: ${show.reason(s.reason)}`);
  const file: PullFile & { incomplete?: string } = {
    description: `The latest active version of each server of the MCP Registry at ${base.href}, as idemscan registry pull read it.`,
    baseUrl: base.href,
    // An incomplete pull keeps its older mark, so the next one asks again for what it missed.
    pulledAt: error ? (previous?.pulledAt ?? new Date(0).toISOString()) : pulledAt,
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
  const data = fileText(file);
  await writeOutputFile(flags.out, data);
  // A scan reads target files up to this size: say so now, not when the census job starts.
  if (Buffer.byteLength(data) > MAX_TARGET_FILE_BYTES)
    warn(
      msg`${show.path(flags.out)} is larger than the ${MAX_TARGET_FILE_BYTES / 1024 / 1024} MB scan reads from one file: split it (remotes and packages apart, as docs/examples/registry-census.yml does)`,
    );
  const rate = seconds > 0 ? ` (${(pages / seconds).toFixed(1)} pages/s)` : '';
  note(
    msg`wrote ${show.path(flags.out)}: ${state.kept.size} servers from ${pages} pages in ${seconds.toFixed(1)} s${rate}; ${state.deleted} deleted and ${state.deprecated} deprecated left out, ${state.skipped.length} skipped`,
  );
  if (error) {
    tell(msg`registry pull stopped: ${show.message(error)}; kept what was read before`);
    process.exitCode = EXIT.allFailed;
  }
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
    const url = apiUrl(base, '/v0.1/servers');
    url.searchParams.set('limit', String(PAGE_LIMIT));
    // URLSearchParams percent-encodes: a cursor is opaque and may hold '&', '=' or '/'.
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    if (since) url.searchParams.set('updated_since', since);
    const got = await getJson(url, { signal: deadline });
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
    const next = isObj(doc.metadata) ? doc.metadata.nextCursor : undefined;
    if (next === undefined || next === null || next === '') return { pages: page };
    if (typeof next !== 'string' || next.length > 1_000)
      return {
        pages: page,
        error: `page ${page}: metadata.nextCursor is not a cursor (a string up to 1,000 characters)`,
      };
    if (cursors.has(next))
      return {
        pages: page,
        error: `page ${page}: cursor ${JSON.stringify(clip(next, LIMITS.shown.name))} seen twice (the registry's pages loop)`,
      };
    cursors.add(next);
    cursor = next;
  }
}
