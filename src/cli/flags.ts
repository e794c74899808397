/** The flags of scan, audit and lock as commander hands them over (declared in main.ts). */
import type { OAuthFlags } from './oauth-flags.js';

export interface ScanFlags extends OAuthFlags {
  json?: string;
  out: string;
  /** Parsed and checked by main.ts (listOption): file formats only. */
  format: string[];
  /** Absent for audit (one server). */
  concurrency?: number;
  httpConcurrency?: number;
  timeout: number;
  probeTimeout: number;
  maxPages: number;
  trust?: string[];
  failOn?: string;
  /** `--profile`, repeatable: builtin ids or JSON files, each possibly comma-separated. */
  profile?: string[];
  sandbox?: boolean;
  install: boolean;
  cacheDir?: string;
  /** PyPI: let pip build sdists (their build code runs at install time). */
  allowSdist?: boolean;
  quiet?: boolean;
  /** A lock file to compare with (report.drift); `lock` writes one to `lock`. */
  baseline?: string;
  lock?: string;
  rulesBaseUrl?: string;
  /** `--sarif-uri NAME=PATH` or `PATH`, repeatable: checked by cli/sarif-uri.ts before the scan. */
  sarifUri?: string[];
  /** `--allow-env`: the variables target files (and project configs) may expand. */
  allowEnv?: string[];
  /** `--suppress FILE` (default .idemscan-suppress.json when present). */
  suppress?: string;
  /** `scan --resume`: read back the spool an interrupted scan left under --out, scan only the rest. */
  resume?: boolean;
}

export interface AuditFlags extends ScanFlags {
  header?: string[];
  env?: string[];
  sse?: boolean;
  name?: string;
  /** `--tools FILE`: a saved tools/list result, classified without starting anything. */
  tools?: string;
}

/** `probe`: audit's flags (those main.ts declares for it) and the plan, checked before anything starts. */
export interface ProbeFlags extends AuditFlags {
  plan?: string;
}
