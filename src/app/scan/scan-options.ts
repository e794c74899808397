/** What `scan()` takes and reports while it runs (docs/LIBRARY.md); types only, shared by scan and scan-server. */
import type { LoadedProfile } from '../../classify/profiles/index.js';
import type { ConnectOptions, Observation } from '../../connect/observe.js';
import type { OAuthScanOptions } from '../../connect/oauth/server-auth.js';
import type { ServerReport } from '../../model/schema.js';
import type { PrepareEvent } from '../../launch/prepare.js';
import type { Redactor } from '../../redact/redact.js';
import type { Shard } from '../../targets/shard.js';
import type { SkippedTarget } from '../../targets/types.js';

/** The published options of `scan()`: what a caller decides, nothing of how the connector works. */
export interface ScanOptions {
  /** Each server's bound, from its start to the last page (a target's own `timeoutMs` wins). */
  timeoutMs?: number;
  /** How long `server/discover` may stay silent before `initialize` is tried. */
  probeTimeoutMs?: number;
  /** `tools/list` pages read per server at most (`--max-pages`, recorded in report.options). */
  maxPages?: number;
  /** Tools kept per server at most. */
  maxTools?: number;
  /** What may be kept of one server, in estimated heap bytes (finding `memory-budget`, whose page names it). */
  maxServerBytes?: number;
  concurrency?: number;
  /** Servers reached over HTTP at once (waiting on the network, not the CPU): a pool of their own. */
  httpConcurrency?: number;
  /** Install pinned packages (npm, PyPI, .mcpb, OCI) that are not in the cache yet (needs their registries). */
  install?: boolean;
  /** PyPI: let pip (or uv) build source distributions, which runs the package's build code at install time. */
  allowSdist?: boolean;
  cacheDir?: string;
  /** Run stdio servers in bubblewrap (or, without it, a loopback-only network namespace). */
  sandbox?: boolean;
  /** `--writable`: directories bound read-write into bubblewrap, the user's explicit choice (docs/SANDBOX.md). */
  writable?: string[];
  /** Server names whose hints the user trusts, in any case, as `trusted: true` on a Target. */
  trust?: string[];
  /** `trust` also matches serverInfo.name: only for one server, as in a list any can claim a trusted name. */
  trustServerInfo?: boolean;
  /** Profiles each tool is checked against (`--profile`), recorded in report.options.profiles. */
  profiles?: LoadedProfile[];
  /** OAuth for HTTP servers (docs/OAUTH.md): stored tokens are used without it; a sign-in only with `interactive`. */
  oauth?: Partial<OAuthScanOptions>;
  /** Stops the scan: running servers are ended, unstarted ones skipped, the report says so. */
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** Carried into report.skipped (the entries a target file could not use: `loadTargetFile`'s). */
  skipped?: SkippedTarget[];
  /** Recorded in report.options when the targets are one shard of a list (`scan --shard I/N`). */
  shard?: Shard;
  /** Positions already in `scanInto`'s sink (`scan --resume`): neither prepared nor scanned again. */
  resumed?: ReadonlySet<number>;
}

/** Not published: the connector's tuning the tests set, and `audit --save-tools`'s hook. */
export interface InternalScanOptions extends ScanOptions, Partial<Pick<ConnectOptions, ConnectTuning>> {
  /** Told each live server's observation, read with the tools as sent, and the server's redactor. */
  onObserved?: (observation: Observation, redactor: Redactor) => void;
}

type ConnectTuning = 'maxFrameBytes' | 'stderrTailBytes' | 'killGraceMs';

export type ProgressEvent =
  /** Installs and warnings of preparing the targets (launch/prepare.ts). */
  | PrepareEvent
  | { type: 'start'; target: string; index: number; total: number }
  /** `index` counts the servers done so far; `target` is the position of the server's target, as in `start`. */
  | { type: 'done'; server: ServerReport; index: number; total: number; target?: number };
