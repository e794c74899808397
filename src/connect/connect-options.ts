/** What the connector is given for one server, and what it gives back (session.ts, observe.ts). */
import { DEFAULTS } from '../model/limits.js';
import type { AuthInfo, Finding, Failure } from '../model/schema.js';
import type { PendingCloses } from './closes.js';
import type { EraMemo } from './era-memo.js';
import type { Negotiated } from './negotiate.js';
import type { OAuthScanOptions } from './oauth/server-auth.js';
import type { LaunchPlan, RemotePlan } from '../launch/plan.js';
import { ScanFailure } from './failure.js';

export interface ConnectOptions {
  /** From spawn (or first request) to the last page. */
  timeoutMs: number;
  probeTimeoutMs: number;
  maxPages: number;
  maxTools: number;
  maxFrameBytes: number;
  /**
   * What may be kept of one server in all (tool entries with their schemas, cursors, capabilities,
   * serverInfo, notes), in estimated heap bytes; listing stops with a `memory-budget` finding there.
   */
  maxServerBytes: number;
  stderrTailBytes: number;
  killGraceMs: number;
  /** Launches known to stay silent until `initialize` (mutated: new verdicts are added). */
  eraMemo?: EraMemo;
  /** Aborting ends this server's scan at once (Ctrl-C). */
  signal?: AbortSignal;
  /** OAuth for HTTP servers (stored tokens, --oauth, --stored-auth-only); absent: none at all. */
  oauth?: OAuthScanOptions;
  /** Told the OAuth secrets met for this server (tokens, codes, verifiers), for the report's redaction. */
  secrets?: SecretSink;
  /**
   * Given: a stdio server listed in full is closed in the background, added here, and `close()`
   * resolves without waiting for its exit; the caller awaits `closes.settled()` before it is done.
   */
  closes?: PendingCloses;
  /**
   * Keep each listed tool's definition fields as the server sent them (`Observation.sent`), for
   * `audit --save-tools`; what is kept is charged to `maxServerBytes` instead of the trimmed entry.
   */
  keepSent?: boolean;
}

/** Where the secrets met while connecting go: the server's Redactor (redact/run-secrets.ts makes it). */
interface SecretSink {
  add(values: readonly string[]): void;
}

/** The connection's share of DEFAULTS (model/limits.ts). */
export const DEFAULT_CONNECT_OPTIONS: ConnectOptions = {
  timeoutMs: DEFAULTS.timeoutMs,
  probeTimeoutMs: DEFAULTS.probeTimeoutMs,
  maxPages: DEFAULTS.maxPages,
  maxTools: DEFAULTS.maxTools,
  maxFrameBytes: DEFAULTS.maxFrameBytes,
  maxServerBytes: DEFAULTS.maxServerBytes,
  stderrTailBytes: DEFAULTS.stderrTailBytes,
  killGraceMs: DEFAULTS.killGraceMs,
};

/** Everything one server's connection showed, start to end: what the report is made of. */
export interface Observation {
  session?: Negotiated;
  tools: Record<string, unknown>[];
  /** With `keepSent`: each entry listed, as sent (a tool's definition fields uncut, outputSchema included). */
  sent?: unknown[];
  findings: Finding[];
  failure?: Failure;
  /** What an HTTP server that refused a request published about its authorization. */
  auth?: AuthInfo;
  durationMs: number;
}

/** A remote's plan: the HTTP path is given only what is not stdio, and a saved list never. */
export function remoteOf(launch: LaunchPlan): RemotePlan {
  if (launch.transport === 'stdio' || launch.transport === 'static') throw new ScanFailure('spawn', 'no URL to reach');
  return launch;
}
