/** Re-pins to the latest versions so a weekly census shows what servers changed; formatting kept. Never prints. */
import pLimit from 'p-limit';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { defaultCacheDir } from '../../model/cache-dir.js';
import { parseJsonc } from '../../targets/jsonc.js';
import { readBounded } from '../../targets/load.js';
import { pickVersion, viewPackage } from '../../launch/npm-launch.js';
import { addPage, newPullState, OFFICIAL, type PulledEntry } from './registry-latest.js';
import { InputError } from '../../model/input-error.js';
import { apiUrl, baseUrlOf, getJson } from './registry-fetch.js';

export interface RefreshOptions {
  /** The MCP Registry asked for registry entries. */
  baseUrl?: string;
  cacheDir?: string;
}

interface Pin {
  name: string;
  registry: 'npm' | 'mcp-registry';
  /** The npm package name, or the registry's server name. */
  id: string;
  from: string;
  /** Where the pin is in the file (jsonc-parser paths). */
  at: JSONPath;
  /** The entry's `hold`: why the pin stays (reported with the latest version, never moved). */
  hold?: string;
}

interface Change {
  name: string;
  registry: Pin['registry'];
  from: string;
  to: string;
}

interface Held {
  name: string;
  at: string;
  latest: string;
  reason: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The pins of a target file: npm specs of our own list, and MCP Registry entries. */
function pinsOf(doc: unknown): Pin[] {
  const pins: Pin[] = [];
  const registryPin = (server: Record<string, unknown>, at: JSONPath) => {
    if (typeof server.name === 'string' && typeof server.version === 'string')
      pins.push({ name: server.name, registry: 'mcp-registry', id: server.name, from: server.version, at });
  };
  if (!isObj(doc)) return pins;
  if (typeof doc.name === 'string' && (Array.isArray(doc.packages) || Array.isArray(doc.remotes))) registryPin(doc, []);
  if (!Array.isArray(doc.servers)) return pins;
  doc.servers.forEach((e: unknown, i) => {
    if (!isObj(e)) return;
    if (isObj(e.server)) return registryPin(e.server, ['servers', i]);
    if (typeof e.npm !== 'string') return;
    const cut = e.npm.lastIndexOf('@');
    if (cut <= 0) return; // unpinned: a scan resolves it anyway
    pins.push({
      name: typeof e.name === 'string' ? e.name : e.npm,
      registry: 'npm',
      id: e.npm.slice(0, cut),
      from: e.npm.slice(cut + 1),
      at: ['servers', i, 'npm'],
      // Any hold holds (a scan refuses one that is not a reason; refresh must not move it meanwhile).
      hold: e.hold === undefined ? undefined : typeof e.hold === 'string' ? e.hold : JSON.stringify(e.hold),
    });
  });
  return pins;
}

export interface RefreshOutcome {
  /** The file's text with every change made (the same text when there is none). */
  text: string;
  changes: Change[];
  held: Held[];
  unchanged: string[];
  failed: { name: string; error: string }[];
  pins: number;
}

export async function refreshTargets(file: string, options: RefreshOptions): Promise<RefreshOutcome> {
  const base = baseUrlOf(options.baseUrl);
  let text = await readBounded(file);
  // The reader of every target file (bounded in depth): jsonc-parser's own parse recurses.
  const parsed = parseJsonc(text);
  if ('error' in parsed) throw new InputError(parsed.error, { file });
  const pins = pinsOf(parsed.value);
  if (pins.length === 0) throw new InputError('no pinned npm entries and no MCP Registry entries to refresh', { file });
  const latest = latestOf(base, options.cacheDir ?? defaultCacheDir());
  const looked = await Promise.all(pins.map(async (pin) => ({ pin, got: await latest(pin) })));
  const outcome: RefreshOutcome = { text, changes: [], held: [], unchanged: [], failed: [], pins: pins.length };
  for (const { pin, got } of looked) {
    if ('error' in got) outcome.failed.push({ name: pin.name, error: got.error });
    else if (got.version === pin.from) outcome.unchanged.push(pin.name);
    else if (pin.hold !== undefined)
      outcome.held.push({ name: pin.name, at: pin.from, latest: got.version, reason: pin.hold });
    else {
      outcome.changes.push({ name: pin.name, registry: pin.registry, from: pin.from, to: got.version });
      text = edit(text, pin, got.version, 'entry' in got ? got.entry : undefined);
    }
  }
  return { ...outcome, text };
}

type Latest = { version: string; entry?: PulledEntry } | { error: string };

/** The latest version of a pin: one npm view per package name, the registry one server at a time per slot. */
function latestOf(base: URL, cacheDir: string): (pin: Pin) => Promise<Latest> {
  const npmLatest = new Map<string, Promise<Latest>>();
  const limit = pLimit(4);
  const latestNpm = (id: string) => {
    if (!npmLatest.has(id)) {
      npmLatest.set(
        id,
        limit(async () => {
          const meta = await viewPackage(id, cacheDir);
          if ('error' in meta) return meta;
          const version = pickVersion(meta, 'latest');
          return version ? { version } : { error: 'the registry names no latest version' };
        }),
      );
    }
    return npmLatest.get(id)!;
  };
  return (pin) => (pin.registry === 'npm' ? latestNpm(pin.id) : limit(() => latestEntry(base, pin)));
}

async function latestEntry(base: URL, pin: Pin): Promise<Latest> {
  const got = await getJson(apiUrl(base, `/v0.1/servers/${encodeURIComponent(pin.id)}/versions/latest`));
  if (!got.ok) return { error: got.error };
  // The same checks and trimming as a pull: a latest version that cannot be scanned is no pin.
  const state = newPullState();
  addPage(state, [got.value], 1);
  const entry = state.kept.get(pin.id);
  if (entry) return { version: entry.server.version, entry };
  const why =
    state.skipped[0]?.reason ??
    (state.deleted || state.deprecated
      ? 'deleted or deprecated in the registry'
      : `the answer is not the latest entry of ${pin.id}`);
  return { error: why };
}

/** The file's text with one pin moved; everything else (comments, layout) kept. */
function edit(text: string, pin: Pin, version: string, entry?: PulledEntry): string {
  const set = (t: string, at: JSONPath, value: unknown) =>
    applyEdits(t, modify(t, at, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  if (pin.registry === 'npm') return set(text, pin.at, `${pin.id}@${version}`);
  if (pin.at.length === 0) {
    // One server.json: its own fields stay; what a scan launches follows the latest version.
    let t = set(text, ['version'], version);
    for (const key of ['packages', 'remotes'] as const) t = set(t, [key], entry?.server[key]);
    return t;
  }
  return set(set(text, [...pin.at, 'server'], entry?.server), [...pin.at, '_meta'], entry?._meta ?? { [OFFICIAL]: {} });
}
