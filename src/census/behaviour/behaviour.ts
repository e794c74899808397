/** The behaviour table (docs/PROBE.md); every judgement is stored here so renderers only read it. */
import { z } from 'zod';
import { ProbeOutcome } from '../../model/probe-schema.js';
import { Verdict } from '../../model/schema-base.js';

/** A hint as declared: `true`, `false`, or absent (`null`: the spec's default applies). */
const Declared = z.boolean().nullable();

/** Does what the tool declares match what the probe observed? */
export const Agreement = z.enum(['agrees', 'understates', 'overstates', 'unknown']);

/** How a row was made: a hand-written plan, or `probe --auto` (arguments from the schema, the sandbox's files observed). */
export const Method = z.enum(['plan', 'auto']);

export const BehaviourRow = z.object({
  method: Method.optional(),
  server: z.string(),
  tool: z.string(),
  /** The plan lists cases for this tool: which one (1-based). */
  case: z.number().int().min(1).optional(),
  /** The hints as the tool declared them (booleans only; anything else reads as absent). */
  declared: z.object({
    readOnlyHint: Declared,
    destructiveHint: Declared,
    idempotentHint: Declared,
    openWorldHint: Declared,
  }),
  verdict: Verdict,
  /** Where the probe put a key (`$.path`, `params.idempotencyKey`), or null. */
  key: z.string().nullable(),
  outcome: ProbeOutcome,
  /** The outcome the library file expects, worked out from the server's source (absent: not stated). */
  expected: ProbeOutcome.optional(),
  agreement: Agreement,
  /** The agreement in words: "declares not idempotent, does not repeat its effect". */
  words: z.string(),
  /** The probe's reason (bounded, redacted, as in the probe report). */
  reason: z.string(),
  requests: z.number().int(),
  durationMs: z.number().int(),
});

export const BehaviourServer = z.object({
  method: Method.optional(),
  /** The library file's server name (its file name without .json), or the target list's. */
  name: z.string(),
  /** The package as pinned in the library file (`@scope/pkg@1.2.3`). */
  package: z.string(),
  /** `serverVersion()` of the probe report's server. */
  version: z.string().optional(),
  /** Tools the server lists, and experiments the plan ran on it (a case counts once). */
  toolsListed: z.number().int(),
  experiments: z.number().int(),
  /** What the whole probe of this server cost: requests sent (set-up and observers included) and wall time. */
  requests: z.number().int(),
  durationMs: z.number().int(),
  /** Set when the server could not be probed (install, start, listing, plan): then it has no rows. */
  error: z.string().optional(),
  /** Where its probe report is, relative to the table's own directory. */
  report: z.string().optional(),
});

export const BehaviourSummary = z.object({
  /** Library servers, and those of them probed (the others have `error` and no rows). */
  servers: z.number().int(),
  probed: z.number().int(),
  experiments: z.number().int(),
  /** Rows per outcome and per agreement (every key present, zeros included). */
  outcomes: z.record(ProbeOutcome, z.number().int()),
  agreements: z.record(Agreement, z.number().int()),
  /** Rows whose library file states an expected outcome, and how many of them it matched. */
  expected: z.number().int(),
  matched: z.number().int(),
});

export const BehaviourTable = z.object({
  kind: z.literal('idemscan-behaviour'),
  schemaVersion: z.literal('1'),
  generatedAt: z.string(),
  idemscanVersion: z.string(),
  /** How it was made: every probe ran under --sandbox with its scratch backend bound --writable. */
  method: z.object({
    library: z.string(),
    /** The target list `probe-census --auto` ran over, when the table has auto rows. */
    targets: z.string().optional(),
    sandbox: z.literal(true),
    network: z.string(),
    node: z.string(),
  }),
  summary: BehaviourSummary,
  servers: z.array(BehaviourServer),
  rows: z.array(BehaviourRow),
});

export type Agreement = z.infer<typeof Agreement>;
export type Method = z.infer<typeof Method>;
export type BehaviourRow = z.infer<typeof BehaviourRow>;
export type BehaviourServer = z.infer<typeof BehaviourServer>;
export type BehaviourSummary = z.infer<typeof BehaviourSummary>;
export type BehaviourTable = z.infer<typeof BehaviourTable>;
export type DeclaredHints = BehaviourRow['declared'];
