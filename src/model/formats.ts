/**
 * The file each output format writes under `--out` (none: the format only prints). The reporters
 * (render/index.ts) and the run index's schema (census/publish/index-format.ts) both read it here.
 */
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

/** `--format` words that write a file, in the table's order (json first: the default). */
export const FILE_FORMATS = (Object.keys(FORMAT_FILES) as Format[]).filter((f) => FORMAT_FILES[f] !== undefined);
/** Formats that print to stdout rather than write a file (`report --format table`). */
export const PRINT_FORMATS = (Object.keys(FORMAT_FILES) as Format[]).filter((f) => FORMAT_FILES[f] === undefined);

/** The files a run directory may list: the report files idemscan writes, nothing else. */
export const RUN_FILES: readonly string[] = Object.values(FORMAT_FILES).filter((f) => f !== undefined);

/** The lock file `idemscan lock` writes unless `--lock` names another. */
export const DEFAULT_LOCK_FILE = 'idemscan.lock.json';

/** The suppression file `--suppress` reads from the working directory, when present, unless it names another. */
export const DEFAULT_SUPPRESS_FILE = '.idemscan-suppress.json';

/** What `idemscan diff --format` writes (all to stdout). */
export const DIFF_FORMATS = ['text', 'md', 'json'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/**
 * What `scan` writes under `--out` as each server finishes (docs/SCALING.md): removed once the
 * report files hold every server, kept by an interrupted run for `scan --resume`.
 */
export const SPOOL_FILE = 'scan.spool.ndjson';

/**
 * The spool of one shard (`--shard 2/3`: `scan.spool.shard-2-of-3.ndjson`): the shards of a list
 * scanned at once into one --out each keep their own, and `--resume` of a shard finds its own.
 */
export function spoolFileOf(shard?: { index: number; count: number }): string {
  return shard ? `scan.spool.shard-${shard.index}-of-${shard.count}.ndjson` : SPOOL_FILE;
}

/** The names spoolFileOf() gives (a plain pattern, bounded: no backtracking). */
export const SPOOL_NAME = /^scan\.spool(?:\.shard-\d{1,9}-of-\d{1,9})?\.ndjson$/;
