/** `idemscan merge`: shard reports into one whose summary is what an unsharded scan would have counted. */
import { InputError } from '../model/input-error.js';
import type { Report } from '../model/schema.js';
import { summarize } from '../model/summary.js';
import { compareText } from './diff.js';

/** Reports that must not be merged: different schema versions, or a server in two of them. An InputError. */
export class MergeError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

export interface MergeInput {
  file: string;
  report: Report;
}

export interface MergeResult {
  report: Report;
  /** Things worth telling but not refusing: missing shards, different options or versions. */
  warnings: string[];
}

export function mergeReports(inputs: readonly MergeInput[]): MergeResult {
  const first = inputs[0];
  if (!first) throw new MergeError('nothing to merge');
  checkMergeable(inputs);
  const servers = inputs.flatMap((x) => x.report.servers).sort((a, b) => compareText(a.name, b.name));
  const startedAt = inputs.map((x) => x.report.startedAt).reduce((a, b) => (time(b) < time(a) ? b : a));
  const finishedAt = inputs.map((x) => x.report.finishedAt).reduce((a, b) => (time(b) > time(a) ? b : a));
  const skipped = new Map<string, NonNullable<Report['skipped']>[number]>();
  for (const x of inputs)
    for (const k of x.report.skipped ?? []) skipped.set(JSON.stringify([k.name, k.source, k.reason]), k);
  const manifest = manifestOf(inputs);
  // The merged report is not one shard any more; which shards it came from is in mergedFrom.
  const { shard: _shard, ...options } = first.report.options;
  const report: Report = {
    schemaVersion: first.report.schemaVersion,
    tool: first.report.tool,
    startedAt,
    finishedAt,
    options: { ...options, mergedFrom: inputs.map((x) => x.file) },
    summary: summarize(servers),
    servers,
    ...(skipped.size > 0 ? { skipped: [...skipped.values()] } : {}),
    ...(manifest ? { manifest } : {}),
  };
  return { report, warnings: warningsOf(inputs) };
}

/** One schema version, and each server in one report only. */
function checkMergeable(inputs: readonly MergeInput[]): void {
  const first = inputs[0]!;
  for (const x of inputs) {
    if (x.report.schemaVersion !== first.report.schemaVersion) {
      throw new MergeError(
        `${x.file} has schemaVersion "${x.report.schemaVersion}" but ${first.file} has "${first.report.schemaVersion}": reports of different schema versions cannot be merged`,
      );
    }
  }
  const seen = new Map<string, number>();
  inputs.forEach((x, i) => {
    for (const s of x.report.servers) {
      const other = seen.get(s.name);
      if (other === i) throw new MergeError(`server "${s.name}" appears twice in ${x.file}`);
      if (other !== undefined && inputs[other]!.file === x.file) {
        throw new MergeError(`${x.file} is given twice (server "${s.name}" would be counted twice)`);
      }
      if (other !== undefined) {
        throw new MergeError(
          `server "${s.name}" is in both ${inputs[other]!.file} and ${x.file} (the same shard given twice, or overlapping target lists?)`,
        );
      }
      seen.set(s.name, i);
    }
  });
}

/** The first report's manifest, with the packages of all of them; undefined when none has either. */
function manifestOf(inputs: readonly MergeInput[]): Report['manifest'] {
  const first = inputs[0]!;
  const packages = new Set<string>();
  let anyPackages = false;
  for (const x of inputs) {
    const p = x.report.manifest?.packages;
    if (Array.isArray(p)) {
      anyPackages = true;
      for (const spec of p) if (typeof spec === 'string') packages.add(spec);
    }
  }
  if (!first.report.manifest && !anyPackages) return undefined;
  return { ...first.report.manifest, ...(anyPackages ? { packages: [...packages].sort(compareText) } : {}) };
}

function warningsOf(inputs: readonly MergeInput[]): string[] {
  const warnings: string[] = [];
  const first = inputs[0]!;
  for (const x of inputs.slice(1)) {
    if (x.report.tool.version !== first.report.tool.version) {
      warnings.push(
        `${x.file} was written by ${x.report.tool.name} ${x.report.tool.version}, ${first.file} by ${first.report.tool.version}`,
      );
    }
    const differing = Object.keys({ ...first.report.options, ...x.report.options }).filter(
      (k) =>
        k !== 'shard' &&
        k !== 'mergedFrom' &&
        JSON.stringify(first.report.options[k]) !== JSON.stringify(x.report.options[k]),
    );
    if (differing.length > 0)
      warnings.push(`${x.file} was scanned with different options than ${first.file}: ${differing.join(', ')}`);
  }
  const shards = inputs.map((x) => shardOption(x.report.options.shard));
  const counts = new Set(shards.map((s) => s?.count));
  if (shards.every((s) => s !== undefined) && counts.size === 1) {
    const count = shards[0]!.count;
    const have = new Set(shards.map((s) => s!.index));
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length > 0)
      warnings.push(
        `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged report is incomplete`,
      );
  } else if (shards.some((s) => s !== undefined) && counts.size > 1) {
    warnings.push(
      `the reports come from different shardings (${[...counts].map((c) => (c === undefined ? 'unsharded' : `N=${c}`)).join(', ')})`,
    );
  }
  return warnings;
}

function shardOption(value: unknown): { index: number; count: number } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { index, count } = value as Record<string, unknown>;
  return typeof index === 'number' && typeof count === 'number' ? { index, count } : undefined;
}

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}
