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
  /** In estimated heap bytes; listing stops there with a `memory-budget` finding. */
  maxServerBytes: number;
  stderrTailBytes: number;
  killGraceMs: number;
  /** Launches known to stay silent until `initialize` (mutated: new verdicts are added). */
  eraMemo?: EraMemo;
  signal?: AbortSignal;
  /** OAuth for HTTP servers (stored tokens, --oauth, --stored-auth-only); absent: none at all. */
  oauth?: OAuthScanOptions;
  /** Told the OAuth secrets met (tokens, codes, verifiers), for the report's redaction. */
  secrets?: SecretSink;
  /** Given: a listed stdio server closes in the background; the caller awaits `closes.settled()`. */
  closes?: PendingCloses;
  /** Keep each tool's definition fields as sent (`audit --save-tools`), charged to `maxServerBytes`. */
  keepSent?: boolean;
}

/** The server's Redactor (redact/run-secrets.ts). */
interface SecretSink {
  add(values: readonly string[]): void;
}

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

export interface Observation {
  session?: Negotiated;
  tools: Record<string, unknown>[];
  /** With `keepSent`: each entry listed, as sent (a tool's definition fields uncut, outputSchema included). */
  sent?: unknown[];
  findings: Finding[];
  failure?: Failure;
  auth?: AuthInfo;
  durationMs: number;
}

/** A remote's plan: the HTTP path is given only what is not stdio, and a saved list never. */
export function remoteOf(launch: LaunchPlan): RemotePlan {
  if (launch.transport === 'stdio' || launch.transport === 'static') throw new ScanFailure('spawn', 'no URL to reach');
  return launch;
}
