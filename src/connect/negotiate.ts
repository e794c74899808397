/** Era negotiation on one connection (docs/INTERNALS.md); -32022 still tries `initialize`: a server may speak both. */
import { LIMITS } from '../model/limits.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol.js';
import { bounded } from '../model/bounds.js';
import { TOOL_NAME, TOOL_VERSION } from '../model/version.js';
import { ScanFailure } from './failure.js';
import type { RpcClient, RpcOutcome } from './rpc.js';

/** Modern revisions we speak; the SDK's own list (`SUPPORTED_MODERN_PROTOCOL_VERSIONS`) is not exported. */
const MODERN_VERSIONS = ['2026-07-28'];
const CLIENT_INFO = { name: TOOL_NAME, version: TOOL_VERSION };

export interface Negotiated {
  era: 'modern' | 'legacy';
  version: string;
  capabilities?: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
  notes: string[];
  /** True while the era probe has had no answer at all (a server silent until `initialize`). */
  probeSilent?: () => boolean;
}

export interface NegotiateOptions {
  probeTimeoutMs: number;
  /** Time left for the whole server; requests never wait past it. */
  remainingMs: () => number;
  /** True for HTTP, where the probe's 4xx answer (not silence) tells a legacy server. */
  http: boolean;
  /** On stdio and HTTP+SSE a server may drop requests before `initialize`: silence there is a verdict. */
  answersEveryRequest: boolean;
  /** Told the legacy version before `notifications/initialized` goes out (HTTP sends it as a header). */
  setVersion?: (version: string) => void;
  /** Why the probe is skipped: remembered silent (era-memo.ts), or it exited on the probe. */
  skipProbe?: string;
}

/** The `_meta` envelope every 2026-07-28 request carries in place of a handshake. */
export function modernMeta(version: string): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_INFO_META_KEY]: CLIENT_INFO,
    [CLIENT_CAPABILITIES_META_KEY]: {},
  };
}

/** Notes quote what a server sent (the versions it offered): the report keeps this much of them. */
const MAX_NOTES = 20;
const NOTE_CHARS = 300;

export async function negotiate(rpc: RpcClient, opts: NegotiateOptions): Promise<Negotiated> {
  const session = await findEra(rpc, opts);
  return { ...session, notes: boundedNotes(session.notes) };
}

function boundedNotes(notes: string[]): string[] {
  const kept = notes.slice(0, MAX_NOTES).map((n) => bounded(n, NOTE_CHARS));
  return notes.length > MAX_NOTES ? [...kept, `${notes.length - MAX_NOTES} more notes`] : kept;
}

/** Versions a server offered, as a note quotes them: a server may offer 200,000, of any type. */
function offered(versions: unknown[]): string {
  const shown = versions
    .slice(0, 10)
    .map((v) => (typeof v === 'string' ? bounded(v, 40) : typeof v))
    .join(', ');
  return versions.length > 10 ? `${shown} and ${versions.length - 10} more` : shown || 'none';
}

async function findEra(rpc: RpcClient, opts: NegotiateOptions): Promise<Negotiated> {
  if (opts.skipProbe) return rememberedLegacy(rpc, opts, opts.skipProbe);
  const sent = Date.now();
  let answered = false;
  const probe = settle(sendDiscover(rpc, opts.remainingMs())).then((p) => {
    answered ||= p.ok;
    return p;
  });
  const probeSilent = () => !answered;
  const timer = delay(
    opts.answersEveryRequest ? opts.remainingMs() + 1_000 : Math.min(opts.probeTimeoutMs, opts.remainingMs()),
  );
  const early = await Promise.race([probe, timer.promise]);
  timer.cancel();
  if (early) {
    const answer = interpret(early, opts.http);
    if (answer.kind === 'modern') return { ...answer.session, notes: [] };
    return initialize(rpc, opts, [answer.why]);
  }
  // Silent: legacy, or still starting. `initialize` goes out, but a modern server still answers the probe,
  // and the answers may come in either order.
  let modernWon = false;
  const silentNote = `no answer to server/discover within ${opts.probeTimeoutMs} ms`;
  const init = settle(initialize(rpc, opts, [silentNote], () => !modernWon));
  const modern = (answer: Probe, note: string): Negotiated | undefined => {
    if (answer.kind !== 'modern') return undefined;
    modernWon = true;
    return { ...answer.session, notes: [`${note} after ${Date.now() - sent} ms`] };
  };
  const first = await Promise.race([probe.then((p) => ({ probe: p })), init.then((i) => ({ init: i }))]);
  if ('probe' in first) {
    const answer = interpret(first.probe, opts.http);
    const won = modern(answer, 'server/discover answered (slow start)');
    if (won) return won;
    const result = await init;
    if (!result.ok) throw result.error;
    return {
      ...result.value,
      notes: [`${answer.kind === 'legacy' ? answer.why : silentNote}, after ${Date.now() - sent} ms`],
    };
  }
  // `initialize` answered first. A modern-only server refuses it while its discover is still on
  // the way: wait for the probe. A dual server accepts it: give the probe a moment to say modern.
  const grace = first.init.ok ? delay(Math.min(500, opts.remainingMs())) : undefined;
  const late = await Promise.race([probe, ...(grace ? [grace.promise] : [])]);
  grace?.cancel();
  const won = late && modern(interpret(late, opts.http), 'server/discover answered, after initialize,');
  if (won) return won;
  if (!first.init.ok) throw first.init.error;
  return { ...first.init.value, probeSilent };
}

/** Known to stay silent until `initialize`, or to exit on the probe: no probe, unless initialize is refused. */
async function rememberedLegacy(rpc: RpcClient, opts: NegotiateOptions, why: string): Promise<Negotiated> {
  const notes = [why];
  try {
    return await initialize(rpc, opts, notes);
  } catch (err) {
    if (!(err instanceof ScanFailure) || err.kind !== 'protocol') throw err;
    // Upgraded since we remembered it? Ask the modern way before giving up.
    const answer = interpret(await settle(sendDiscover(rpc, opts.remainingMs())), opts.http);
    if (answer.kind === 'modern')
      return { ...answer.session, notes: [...notes, 'initialize refused; it answers server/discover now'] };
    throw err;
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** A wait that can be cancelled, so a finished negotiation leaves no timer behind. */
function delay(ms: number): { promise: Promise<undefined>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

type Probe = { kind: 'modern'; session: Omit<Negotiated, 'notes'> } | { kind: 'legacy'; why: string };

function sendDiscover(rpc: RpcClient, timeoutMs: number): Promise<RpcOutcome> {
  return rpc.request('server/discover', { _meta: modernMeta(MODERN_VERSIONS[0]!) }, timeoutMs);
}

/** What the probe's answer says about the era; a dead or unreachable server is thrown. */
function interpret(settled: Settled<RpcOutcome>, http: boolean): Probe {
  if (!settled.ok) {
    const err = settled.error;
    if (!(err instanceof ScanFailure)) throw err;
    if (err.kind === 'timeout') return { kind: 'legacy', why: 'no answer to server/discover' };
    if (http && err.kind === 'protocol')
      return { kind: 'legacy', why: `server/discover refused: ${bounded(err.message, 120)}` };
    throw err;
  }
  const outcome = settled.value;
  if (outcome.ok) {
    const r = outcome.result;
    const supported = Array.isArray(r.supportedVersions)
      ? r.supportedVersions.filter((v) => typeof v === 'string')
      : [];
    const version = MODERN_VERSIONS.find((v) => supported.includes(v));
    if (!version)
      return { kind: 'legacy', why: `server/discover offered no modern version we speak (${offered(supported)})` };
    const meta = (r._meta ?? {}) as Record<string, unknown>;
    return {
      kind: 'modern',
      session: {
        era: 'modern',
        version,
        capabilities: asObject(r.capabilities),
        serverInfo: asObject(meta[SERVER_INFO_META_KEY]) ?? asObject(r.serverInfo),
      },
    };
  }
  if (outcome.error.code === ProtocolErrorCode.UnsupportedProtocolVersion) {
    const data = asObject(outcome.error.data);
    const supported = Array.isArray(data?.supported) ? data.supported : [];
    return {
      kind: 'legacy',
      why: `server/discover: unsupported version (server supports ${supported.length ? offered(supported) : 'unknown'})`,
    };
  }
  return { kind: 'legacy', why: `server/discover answered error ${outcome.error.code}` };
}

/** `stillWanted`: false once the probe has won, so an abandoned handshake is not completed. */
async function initialize(
  rpc: RpcClient,
  opts: NegotiateOptions,
  notes: string[],
  stillWanted = () => true,
): Promise<Negotiated> {
  const outcome = await rpc.request(
    'initialize',
    { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    opts.remainingMs(),
  );
  const before = notes.length ? ` (before that, ${boundedNotes(notes).join('; ')})` : '';
  if (!outcome.ok) {
    throw new ScanFailure(
      'protocol',
      `initialize failed: ${outcome.error.code} ${bounded(outcome.error.message, LIMITS.quotedChars)}${before}`,
    );
  }
  const r = outcome.result;
  // A version is a date; anything else (an escape sequence, 100 KB of text) is not kept.
  if (typeof r.protocolVersion !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(r.protocolVersion)) {
    throw new ScanFailure('protocol', `initialize result has no valid protocolVersion${before}`);
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(r.protocolVersion)) {
    notes.push(`the server chose ${r.protocolVersion}, a version idemscan does not know`);
  }
  if (stillWanted()) {
    opts.setVersion?.(r.protocolVersion);
    await rpc.notify('notifications/initialized');
  }
  return {
    era: 'legacy',
    version: r.protocolVersion,
    capabilities: asObject(r.capabilities),
    serverInfo: asObject(r.serverInfo),
    notes,
  };
}

export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
