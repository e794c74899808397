/**
 * `idemscan targets refresh FILE`: re-pins every entry of a target file to the latest version its
 * registry reports, so that a weekly census shows what servers changed rather than what pins
 * stayed. npm entries (`"npm": "name@1.2.3"`) ask `npm view` the way a scan resolves an unpinned
 * package (npm-launch.ts: from a directory in the cache, the user's npm settings only); MCP Registry
 * entries (`{server, _meta}` lists, as `registry pull` writes, or one server.json) ask
 * `--base-url` for `/v0.1/servers/NAME/versions/latest`. Other entries stay as they are. The file
 * is edited in place (its formatting kept) and written back atomically; old -> new versions go to
 * stdout, or as JSON with --json.
 */
import pLimit from 'p-limit';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { defaultCacheDir } from '../model/cache-dir.js';
import { parseJsonc } from '../targets/jsonc.js';
import { readBounded } from '../targets/load.js';
import { pickVersion, viewPackage } from '../launch/npm-launch.js';
import { addPage, newPullState, OFFICIAL, type PulledEntry } from '../targets/registry-latest.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { EXIT } from './exit.js';
import { note, tell } from './say.js';
import { writeOutputFile } from '../app/output.js';
import { apiUrl, baseUrlOf, getJson } from './registry-fetch.js';

export interface RefreshFlags {
  baseUrl?: string;
  cacheDir?: string;
  json?: boolean;
  dryRun?: boolean;
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

export async function refreshCommand(file: string, flags: RefreshFlags): Promise<void> {
  const base = baseUrlOf(flags.baseUrl);
  let text = await readBounded(file);
  // The reader of every target file (bounded in depth): jsonc-parser's own parse recurses.
  const parsed = parseJsonc(text);
  if ('error' in parsed) throw new InputError(parsed.error, { file });
  const pins = pinsOf(parsed.value);
  if (pins.length === 0) throw new InputError('no pinned npm entries and no MCP Registry entries to refresh', { file });
  const cacheDir = flags.cacheDir ?? defaultCacheDir();

  // One npm view per package name; the registry asked one server at a time per slot.
  const npmLatest = new Map<string, Promise<{ version: string } | { error: string }>>();
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
  const latestEntry = (pin: Pin) =>
    limit(async (): Promise<{ version: string; entry: PulledEntry } | { error: string }> => {
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
    });

  const looked = await Promise.all(
    pins.map(async (pin) => ({ pin, got: pin.registry === 'npm' ? await latestNpm(pin.id) : await latestEntry(pin) })),
  );
  const changes: Change[] = [];
  const held: Held[] = [];
  const unchanged: string[] = [];
  const failed: { name: string; error: string }[] = [];
  for (const { pin, got } of looked) {
    if ('error' in got) {
      failed.push({ name: pin.name, error: got.error });
      continue;
    }
    if (got.version === pin.from) {
      unchanged.push(pin.name);
      continue;
    }
    if (pin.hold !== undefined) {
      held.push({ name: pin.name, at: pin.from, latest: got.version, reason: pin.hold });
      continue;
    }
    changes.push({ name: pin.name, registry: pin.registry, from: pin.from, to: got.version });
    text = edit(text, pin, got.version, 'entry' in got ? (got.entry as PulledEntry) : undefined);
  }
  if (changes.length > 0 && !flags.dryRun) await writeOutputFile(file, text);
  print(file, flags, { changes, held, unchanged, failed });
  if (failed.length === pins.length) process.exitCode = EXIT.allFailed;
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

function print(
  file: string,
  flags: RefreshFlags,
  outcome: { changes: Change[]; held: Held[]; unchanged: string[]; failed: { name: string; error: string }[] },
): void {
  const { changes, held, unchanged, failed } = outcome;
  if (flags.json) {
    const written = changes.length > 0 && !flags.dryRun;
    process.stdout.write(JSON.stringify({ file, written, changes, held, unchanged, failed }, null, 2) + '\n');
    return;
  }
  for (const c of changes)
    process.stdout.write(msg`${show.name(c.name)}: ${show.name(c.from)} -> ${show.name(c.to)}\n`.text);
  for (const h of held)
    note(
      msg`${show.name(h.name)}: held at ${show.name(h.at)} (latest ${show.name(h.latest)}): ${show.reason(h.reason)}`,
    );
  for (const f of failed) tell(msg`${show.name(f.name)}: not refreshed: ${show.reason(f.error)}`);
  const verb = flags.dryRun ? 'would re-pin' : changes.length > 0 ? 're-pinned' : 'nothing to re-pin in';
  const all = changes.length + held.length + unchanged.length + failed.length;
  note(
    msg`${verb} ${changes.length ? `${changes.length} of ${all} entries in ` : ''}${show.path(file)}; ${unchanged.length} already latest, ${held.length} held, ${failed.length} not refreshed`,
  );
}
