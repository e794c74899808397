/** Counted from the report's own judgements, whole and for the most-downloaded; field names are public. */
import { z } from 'zod';
import { Summary } from '../../model/schema-base.js';

const int = z.number().int().nonnegative();

/** One behaviour hint across a group's tools: given as a boolean (true or false), or not at all. */
export const HintCount = z.object({ given: int, true: int, false: int, malformed: int });

const KeyNameCount = z.object({
  /** The key argument's name as the tool's schema spells it (`idempotency_key`, `clientToken`). */
  name: z.string(),
  tools: int,
  servers: int,
});

/** A hint combination the `contradictory-hints` rule reports, by the hint that contradicts readOnlyHint. */
const ContradictionCount = z.object({ combination: z.string(), tools: int, servers: int });

/** Servers by how many tools they list: do big servers annotate less? */
export const SizeBand = z.object({
  band: z.string(),
  servers: int,
  tools: int,
  annotatedTools: int,
  unprotectedTools: int,
  /** Servers whose every tool carries a hint. */
  serversAllAnnotated: int,
  /** Servers with at least one unprotected tool. */
  serversWithUnprotected: int,
});

/** How a server was reached, from its target: a process on stdio, a remote (HTTP or SSE), a saved tool list. */
export const PopulationId = z.enum(['stdio', 'remote', 'saved']);

/** One population of the report: its figures are never pooled with another's. */
export const Population = z.object({
  id: PopulationId,
  /** What its servers are, plural, without a count: `npm packages run on stdio`. */
  label: z.string(),
  /** Its servers in the report (scanned ok or failed), and of them scanned ok. */
  servers: int,
  serversOk: int,
  /** Its servers by what was launched or reached: npm, pypi, mcpb, oci, command; http, sse; static. */
  kinds: z.record(z.string(), int),
});

export const StatsGroup = z.object({
  /** `all`, `top N` (the N scanned-ok servers with the most monthly downloads), or a population's id. */
  id: z.string(),
  title: z.string(),
  /** The populations whose servers the group counts: more than one only for `all` of a mixed report. */
  population: z.array(PopulationId),
  /** The group's summary, recounted by model/summary.ts over its servers (weighted figures included). */
  summary: Summary,
  hints: z.object({
    readOnlyHint: HintCount,
    destructiveHint: HintCount,
    idempotentHint: HintCount,
    openWorldHint: HintCount,
  }),
  /** Tools with a `title` annotation (a name for people, no behaviour). */
  titled: int,
  /** Servers that advertise the `tools.idempotency` capability (SEP-3182). */
  idempotencyCapability: int,
  keyNames: z.array(KeyNameCount),
  contradictions: z.array(ContradictionCount),
  bySize: z.array(SizeBand),
});

export const CensusStats = z.object({
  /** The report counted: its file name, when it started, the idemscan that made it. */
  report: z.object({ file: z.string(), startedAt: z.string(), tool: z.string() }),
  /** How every figure is counted, a sentence each (rendered under the tables). */
  method: z.array(z.string()),
  /** Who was counted: the list's entries, those skipped before they ran, and each population of the rest. */
  population: z.object({
    /** Servers in the report and entries skipped: the list's size. */
    entries: int,
    skipped: int,
    /** In words, e.g. `829 list entries: 748 npm packages run on stdio (523 scanned ok, 225 failed), 81 skipped`. */
    label: z.string(),
    parts: z.array(Population),
  }),
  groups: z.array(StatsGroup),
  /** Servers that failed, by failure kind. */
  failed: z.record(z.string(), int),
  /** Entries the list skipped (they cannot start here), by the group their reason names. */
  skipped: z.record(z.string(), int),
});

export type HintCount = z.infer<typeof HintCount>;
export type PopulationId = z.infer<typeof PopulationId>;
export type Population = z.infer<typeof Population>;
export type SizeBand = z.infer<typeof SizeBand>;
export type StatsGroup = z.infer<typeof StatsGroup>;
export type CensusStats = z.infer<typeof CensusStats>;
