/** Undefined: the format only prints. */
export const FORMAT_FILES = {
  json: 'report.json',
  table: undefined,
  tools: undefined,
  html: 'report.html',
  md: 'report.md',
  sarif: 'report.sarif',
  manifest: 'manifest.json',
  csv: 'tools.csv',
  ndjson: 'tools.ndjson',
} as const satisfies Record<string, string | undefined>;

export type Format = keyof typeof FORMAT_FILES;

/** json first: the default. */
export const FILE_FORMATS = (Object.keys(FORMAT_FILES) as Format[]).filter((f) => FORMAT_FILES[f] !== undefined);
export const PRINT_FORMATS = (Object.keys(FORMAT_FILES) as Format[]).filter((f) => FORMAT_FILES[f] === undefined);

/** A run directory lists these and nothing else. */
export const RUN_FILES: readonly string[] = Object.values(FORMAT_FILES).filter((f) => f !== undefined);

export const DEFAULT_LOCK_FILE = 'idemscan.lock.json';

export const DEFAULT_SUPPRESS_FILE = '.idemscan-suppress.json';

/** All to stdout. */
export const DIFF_FORMATS = ['text', 'md', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** docs/SCALING.md. */
export const SPOOL_FILE = 'scan.spool.ndjson';

/** Shards scanned at once into one --out each keep their own. */
export function spoolFileOf(shard?: { index: number; count: number }): string {
  return shard ? `scan.spool.shard-${shard.index}-of-${shard.count}.ndjson` : SPOOL_FILE;
}

export const SPOOL_NAME = /^scan\.spool(?:\.shard-\d{1,9}-of-\d{1,9})?\.ndjson$/;
