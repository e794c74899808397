/** The per-tool dataset (docs/DATASET.md), read from the report as is: its text is already redacted and bounded. */
import { HINT_NAMES, receivedText, type HintName } from '../model/verdicts.js';
import { serverVersion } from '../model/package-spec.js';
import type { ReportHead } from '../model/report-head.js';
import type { KeyArgument, ServerReport, ToolReport, Verdict } from '../model/schema.js';

export interface DatasetRow {
  server: string;
  /** The package name when the server was installed from npm or PyPI, else null. */
  package: string | null;
  /** The pinned npm or PyPI version, else the version the server reported in serverInfo, else null. */
  version: string | null;
  downloads: number | null;
  tool: string;
  title: string | null;
  /** The hint as received (a boolean, or whatever else the server sent), null when absent. */
  read_only_hint: HintValue;
  destructive_hint: HintValue;
  idempotent_hint: HintValue;
  open_world_hint: HintValue;
  read_only: boolean;
  destructive: boolean;
  idempotent: boolean;
  open_world: boolean;
  verdict: Verdict;
  key_arguments: string;
  findings: string;
  /** JSONPaths of the weak key arguments (names that often but not always mean a key), `;`-joined. */
  weak_key_arguments: string;
  /** `sha256:...` of the tool's definition as received (docs/DEFINITION-HASH.md); null in reports made before it. */
  definition_hash: string | null;
  /** The server's protocol era (`modern`, `legacy`) and version, as negotiated; null when the report has none. */
  protocol_era: string | null;
  protocol_version: string | null;
  /** The run the row comes from: its start (UTC), that day, and the idemscan that made it. */
  run_date: string;
  run_started_at: string;
  idemscan_version: string;
}

/** A JSON value from the report's (bounded) copy of the annotations. */
export type HintValue = boolean | string | number | null | object;

export type DatasetColumn = keyof DatasetRow;

/** The hint columns: typed in NDJSON, encoded for CSV by `hintText`. */
export const HINT_COLUMNS: ReadonlySet<DatasetColumn> = new Set([
  'read_only_hint',
  'destructive_hint',
  'idempotent_hint',
  'open_world_hint',
]);

/** Column order of both files; docs/DATASET.md describes each. */
export const DATASET_COLUMNS: readonly DatasetColumn[] = [
  'server',
  'package',
  'version',
  'downloads',
  'tool',
  'title',
  'read_only_hint',
  'destructive_hint',
  'idempotent_hint',
  'open_world_hint',
  'read_only',
  'destructive',
  'idempotent',
  'open_world',
  'verdict',
  'key_arguments',
  'findings',
  // Added after the first published runs: appended, so a reader by position keeps its columns.
  'weak_key_arguments',
  'definition_hash',
  'protocol_era',
  'protocol_version',
  'run_date',
  'run_started_at',
  'idemscan_version',
];

const HINT_COLUMN: Record<HintName, 'read_only_hint' | 'destructive_hint' | 'idempotent_hint' | 'open_world_hint'> = {
  readOnlyHint: 'read_only_hint',
  destructiveHint: 'destructive_hint',
  idempotentHint: 'idempotent_hint',
  openWorldHint: 'open_world_hint',
};

/** The columns every row of one report shares: which run it is, so concatenated runs keep theirs. */
type RunColumns = Pick<DatasetRow, 'run_date' | 'run_started_at' | 'idemscan_version'>;

export function runColumns(head: Pick<ReportHead, 'startedAt' | 'tool'>): RunColumns {
  return { run_date: head.startedAt.slice(0, 10), run_started_at: head.startedAt, idemscan_version: head.tool.version };
}

/** The rows of each scanned-ok server, one server at a time (a spooled scan is never all in memory). */
export function* datasetRows(servers: Iterable<ServerReport>, run: RunColumns): Generator<DatasetRow> {
  for (const s of servers) {
    if (s.status !== 'ok') continue;
    const server = serverColumns(s);
    for (const t of s.tools) yield { ...toolRow(server, t), ...run };
  }
}

type ServerColumns = Pick<
  DatasetRow,
  'server' | 'package' | 'version' | 'downloads' | 'protocol_era' | 'protocol_version'
>;

function serverColumns(s: ServerReport): ServerColumns {
  const { package: pkg, version } = serverVersion(s);
  return {
    server: s.name,
    package: pkg ?? null,
    version: version ?? null,
    downloads: s.target.downloads ?? null,
    protocol_era: s.protocol?.era ?? null,
    protocol_version: s.protocol?.version ?? null,
  };
}

function toolRow(server: ServerColumns, t: ToolReport): Omit<DatasetRow, keyof RunColumns> {
  const hints = {} as Record<(typeof HINT_COLUMN)[HintName], HintValue>;
  for (const h of HINT_NAMES) hints[HINT_COLUMN[h]] = rawHint(t.annotations, h);
  const { protocol_era, protocol_version, ...first } = server;
  return {
    ...first,
    tool: t.name,
    title: t.title ?? null,
    ...hints,
    read_only: t.effective.readOnly,
    destructive: t.effective.destructive,
    idempotent: t.effective.idempotent,
    open_world: t.effective.openWorld,
    verdict: t.verdict,
    key_arguments: keyPaths(t, 'strong'),
    findings: [...new Set(t.findings.map((f) => f.rule))].sort().join(';'),
    weak_key_arguments: keyPaths(t, 'weak'),
    definition_hash: t.definitionHash ?? null,
    protocol_era,
    protocol_version,
  };
}

/** The paths of the tool's key arguments of one confidence, deduplicated, `;`-joined, in the report's order. */
function keyPaths(t: ToolReport, confidence: KeyArgument['confidence']): string {
  return [...new Set(t.keyArguments.filter((k) => k.confidence === confidence).map((k) => k.path))].join(';');
}

/** A hint as received, null when absent (a `null` the server sent counts as absent, as in the spec). */
function rawHint(annotations: Record<string, unknown> | undefined, hint: HintName): HintValue {
  if (!annotations || !Object.hasOwn(annotations, hint)) return null;
  const v = annotations[hint];
  return v === undefined ? null : (v as HintValue);
}

/** Non-booleans JSON-encoded, so the string `"true"` never reads as the boolean. */
export function hintText(v: HintValue): string | null {
  return v === null ? null : typeof v === 'boolean' ? String(v) : receivedText(v);
}
