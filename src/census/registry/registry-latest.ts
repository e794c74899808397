/** The latest active version of each registry server; an entry that cannot be scanned is skipped naming its field. */
import { jsonExtent, MAX_JSON_DEPTH } from '../../model/bounded-input.js';

export const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/** One kept entry: the server.json fields a scan reads, and the registry's own metadata. */
export interface PulledEntry {
  server: { name: string; version: string; packages?: unknown[]; remotes?: unknown[] };
  _meta: { [OFFICIAL]: { status: string; isLatest: true; updatedAt?: string; publishedAt?: string } };
}

interface PullSkip {
  name: string;
  reason: string;
}

export interface PullState {
  /** By server name, in the order first seen. */
  kept: Map<string, PulledEntry>;
  skipped: PullSkip[];
  /** Latest versions the registry marks deleted or deprecated: left out. */
  deleted: number;
  deprecated: number;
  /** Older versions of a server (isLatest false): the latest one stands for it. */
  older: number;
  /** Names taken by an earlier page of this pull: a second latest version of one is a skip. */
  seen: Set<string>;
  /** The kept entries' size as JSON, as they were added (never less than what is held). */
  bytes: number;
}

export const newPullState = (kept = new Map<string, PulledEntry>()): PullState => ({
  kept,
  skipped: [],
  deleted: 0,
  deprecated: 0,
  older: 0,
  seen: new Set(),
  bytes: 0,
});

/** Far above any real server.json (a few KB); below what would let one entry crowd out the rest. */
const MAX_ENTRY_BYTES = 256 * 1024;
/** A kept entry sits two levels down in the file `registry pull` writes. */
const MAX_ENTRY_DEPTH = MAX_JSON_DEPTH - 2;
const MAX_NAME = 200;
const MAX_VERSION = 128;
const MAX_PARTS = 32;
/** What the registry target format launches or connects to; other remote types are skips here. */
const REMOTE_TYPES = new Set(['streamable-http', 'http', 'sse']);
const PACKAGE_TRANSPORTS = new Set(['stdio']);

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}...` : s);

/** Adds one page's `servers` to the state. `page` names the page in skip reasons (`page 3`). */
export function addPage(state: PullState, servers: unknown[], page: number): void {
  servers.forEach((raw, i) => addEntry(state, raw, `page ${page} servers[${i}]`));
}

function addEntry(state: PullState, raw: unknown, at: string): void {
  const skip = (name: string, reason: string) => void state.skipped.push({ name, reason: `${at}${reason}` });
  if (!isObj(raw) || !isObj(raw.server)) return skip(at, ': not a {server, _meta} entry');
  const server = raw.server;
  const name = typeof server.name === 'string' ? server.name : undefined;
  if (!name || name.length > MAX_NAME)
    return skip(at, `.server.name: ${name ? `longer than ${MAX_NAME} characters` : 'missing'}`);
  // Measured without recursion: JSON.stringify of a 200,000-deep entry overflows the stack.
  const extent = jsonExtent(raw, { maxDepth: MAX_ENTRY_DEPTH });
  if ('tooDeep' in extent) return skip(name, `: nested deeper than ${MAX_ENTRY_DEPTH} levels`);
  if (extent.length > MAX_ENTRY_BYTES)
    return skip(name, `: ${extent.length} bytes, above the bound of ${MAX_ENTRY_BYTES}`);
  const meta = isObj(raw._meta) && isObj(raw._meta[OFFICIAL]) ? raw._meta[OFFICIAL] : undefined;
  if (!meta) return skip(name, `._meta["${OFFICIAL}"]: missing (which version is latest is unknown)`);
  const status = typeof meta.status === 'string' ? meta.status : 'active';
  if (meta.isLatest !== true) {
    state.older++;
    // An incremental pull: the version kept before is no longer the latest.
    if (state.kept.get(name)?.server.version === server.version && !state.seen.has(name)) state.kept.delete(name);
    return;
  }
  if (status === 'deleted' || status === 'deprecated') {
    state[status]++;
    state.kept.delete(name);
    state.seen.add(name);
    return;
  }
  if (status !== 'active')
    return skip(name, `._meta["${OFFICIAL}"].status: ${quoted(status)} is not active, deprecated or deleted`);
  const version = typeof server.version === 'string' ? server.version : undefined;
  if (!version || version.length > MAX_VERSION)
    return skip(name, `.server.version: ${version ? 'too long' : 'missing'}`);
  if (state.seen.has(name))
    return skip(name, `.server.name: duplicate: a latest version of ${quoted(name)} came earlier in this pull`);
  const parts = scannableParts(server, (field, why) => skip(name, `${field}: ${why}`));
  if ('problem' in parts) return skip(name, parts.problem);
  state.seen.add(name);
  const kept: PulledEntry = {
    server: { name, version, ...parts },
    _meta: { [OFFICIAL]: { status, isLatest: true, ...dates(meta) } },
  };
  state.bytes += JSON.stringify(kept).length;
  state.kept.set(name, kept);
}

function dates(meta: Record<string, unknown>): { updatedAt?: string; publishedAt?: string } {
  const out: { updatedAt?: string; publishedAt?: string } = {};
  if (typeof meta.updatedAt === 'string' && meta.updatedAt.length <= 64) out.updatedAt = meta.updatedAt;
  if (typeof meta.publishedAt === 'string' && meta.publishedAt.length <= 64) out.publishedAt = meta.publishedAt;
  return out;
}

/** Unusable parts are skipped naming their field; unlaunched package types stay, so the scan says so. */
function scannableParts(
  server: Record<string, unknown>,
  skipPart: (field: string, why: string) => void,
): { packages?: unknown[]; remotes?: unknown[] } | { problem: string } {
  const packages = Array.isArray(server.packages) ? server.packages : [];
  const remotes = Array.isArray(server.remotes) ? server.remotes : [];
  if (packages.length === 0 && remotes.length === 0) return { problem: '.server: neither packages nor remotes' };
  if (packages.length > MAX_PARTS)
    return { problem: `.server.packages: ${packages.length} entries, above the bound of ${MAX_PARTS}` };
  if (remotes.length > MAX_PARTS)
    return { problem: `.server.remotes: ${remotes.length} entries, above the bound of ${MAX_PARTS}` };
  const dropped: [string, string][] = [];
  const drop = (field: string, why: string) => void dropped.push([field, why]);
  const keptRemotes = remotes.filter((r, i) => {
    const why = remoteProblem(r);
    if (why) drop(`.server.remotes[${i}]${why.field}`, why.text);
    return !why;
  });
  const keptPackages = packages.filter((p, i) => {
    const t = isObj(p)
      ? isObj(p.transport) && typeof p.transport.type === 'string'
        ? p.transport.type
        : 'stdio'
      : undefined;
    if (t === undefined) drop(`.server.packages[${i}]`, 'not an object');
    else if (!PACKAGE_TRANSPORTS.has(t))
      drop(`.server.packages[${i}].transport.type`, `${quoted(t)} packages need a URL; only stdio ones are launched`);
    return t !== undefined && PACKAGE_TRANSPORTS.has(t);
  });
  // Nothing left: one skip for the entry, with each part's reason; else one skip per part left out.
  if (keptPackages.length === 0 && keptRemotes.length === 0)
    return { problem: dropped.map(([field, why]) => `${field}: ${why}`).join('; ') };
  for (const [field, why] of dropped) skipPart(field, why);
  return {
    ...(keptPackages.length ? { packages: keptPackages.map(trimPackage) } : {}),
    ...(keptRemotes.length ? { remotes: keptRemotes.map(trimRemote) } : {}),
  };
}

// Only what targets/formats/registry.ts reads: 20,000 servers then fit MAX_TARGET_FILE_BYTES.
const PACKAGE_KEYS = [
  'registryType',
  'registry_name',
  'registryBaseUrl',
  'identifier',
  'name',
  'version',
  'fileSha256',
  'transport',
];
const VALUE_KEYS = ['type', 'name', 'value', 'default', 'isRequired', 'isSecret'];
const REMOTE_KEYS = ['type', 'transport_type', 'url'];

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(o, k)) out[k] = o[k];
  return out;
}
const values = (v: unknown): unknown => (Array.isArray(v) ? v.map((x) => (isObj(x) ? pick(x, VALUE_KEYS) : x)) : v);

function trimPackage(p: unknown): unknown {
  const o = p as Record<string, unknown>;
  const out = pick(o, PACKAGE_KEYS);
  if (o.packageArguments !== undefined) out.packageArguments = values(o.packageArguments);
  if (o.environmentVariables !== undefined) out.environmentVariables = values(o.environmentVariables);
  return out;
}

function trimRemote(r: unknown): unknown {
  const o = r as Record<string, unknown>;
  const out = pick(o, REMOTE_KEYS);
  if (o.headers !== undefined) out.headers = values(o.headers);
  return out;
}

function remoteProblem(r: unknown): { field: string; text: string } | undefined {
  if (!isObj(r)) return { field: '', text: 'not an object' };
  const type =
    typeof r.type === 'string' ? r.type : typeof r.transport_type === 'string' ? r.transport_type : 'streamable-http';
  if (!REMOTE_TYPES.has(type))
    return { field: '.type', text: `${quoted(type)} is not a transport idemscan speaks (streamable-http, sse)` };
  const url = typeof r.url === 'string' ? r.url : '';
  // `https://{tenant}.example.com/mcp` needs a value only its user knows: there is nothing to connect to.
  if (url.includes('{') || url.includes('}'))
    return { field: '.url', text: `templated (${quoted(url)}): needs values only its user knows` };
  if (!URL.canParse(url)) return { field: '.url', text: url ? 'not a URL' : 'missing' };
  return undefined;
}

/** The file `registry pull` writes and reads back for an incremental pull: a list response. */
export interface PullFile {
  description: string;
  baseUrl: string;
  /** When the pull started: the next incremental pull asks for what changed since. */
  pulledAt: string;
  counts: { servers: number; deleted: number; deprecated: number; older: number; skipped: number };
  servers: PulledEntry[];
  skipped?: PullSkip[];
}

/** The kept entries of an earlier pull file, or why it cannot be continued. */
export function readPullFile(
  doc: unknown,
): { pulledAt: string; baseUrl: string; kept: Map<string, PulledEntry> } | { error: string } {
  if (!isObj(doc) || typeof doc.pulledAt !== 'string' || !Array.isArray(doc.servers))
    return { error: 'not a file idemscan registry pull wrote (no pulledAt or servers)' };
  if (Number.isNaN(Date.parse(doc.pulledAt))) return { error: `pulledAt ${quoted(doc.pulledAt)} is not a time` };
  const kept = new Map<string, PulledEntry>();
  for (const e of doc.servers as unknown[]) {
    if (isObj(e) && isObj(e.server) && typeof e.server.name === 'string' && typeof e.server.version === 'string')
      kept.set(e.server.name, e as unknown as PulledEntry);
  }
  return { pulledAt: doc.pulledAt, baseUrl: typeof doc.baseUrl === 'string' ? doc.baseUrl : '', kept };
}
