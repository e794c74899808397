/** What `scan()` takes and what it reports while it runs (docs/LIBRARY.md); types only, shared by scan.ts and scan-server.ts. */
import type { LoadedProfile } from './classify/profiles/index.js';
import type { ConnectOptions } from './connect/observe.js';
import type { OAuthScanOptions } from './connect/oauth/server-auth.js';
import type { ServerReport } from './model/schema.js';
import type { PrepareEvent } from './launch/prepare.js';
import type { Shard } from './targets/shard.js';
import type { SkippedTarget } from './targets/types.js';

export interface ScanOptions extends Partial<Omit<ConnectOptions, 'oauth'>> {
  /** OAuth for HTTP servers (docs/OAUTH.md). Stored tokens are used even without it; a sign-in only with `interactive`. */
  oauth?: Partial<OAuthScanOptions>;
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
  /**
   * Server names whose hints the user trusts (as `trusted: true` on a Target): a target's name, in
   * any case; with `trustServerInfo`, also the name the server gives itself (serverInfo.name).
   */
  trust?: string[];
  /**
   * `trust` also matches serverInfo.name: only where the caller shows servers by that name (audit of
   * one server without --name). In a list any server can call itself by a trusted name.
   */
  trustServerInfo?: boolean;
  skipped?: SkippedTarget[];
  /** Profiles each tool is checked against (`--profile`), recorded in report.options.profiles. */
  profiles?: LoadedProfile[];
  /** Recorded in report.options when the targets are one shard of a list (`scan --shard I/N`). */
  shard?: Shard;
  /**
   * Positions in the target list of servers already in the sink given to `scanInto` (`scan
   * --resume`): they are neither prepared nor scanned again, and count as scanned.
   */
  resumed?: ReadonlySet<number>;
  onProgress?: (event: ProgressEvent) => void;
  /** Stops the scan: running servers are ended, unstarted ones skipped, the report says so. */
  signal?: AbortSignal;
  /** With `afterList` (`idemscan probe`): adds what it found to a server's report, before redaction. */
  attach?: (server: ServerReport) => void;
}

export type ProgressEvent =
  /** Installs and warnings of preparing the targets (launch/prepare.ts). */
  | PrepareEvent
  | { type: 'start'; target: string; index: number; total: number }
  /** `index` counts the servers done so far; `target` is the position of the server's target, as in `start`. */
  | { type: 'done'; server: ServerReport; index: number; total: number; target?: number };
