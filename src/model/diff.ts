// `worse`: a client can retry less safely than before; `neutral`: not a safety change by itself.
import { z } from 'zod';
import { Confidence, Summary, Verdict } from './schema-base.js';

export const DIFF_VERSION = '1';

export const Direction = z.enum(['worse', 'better', 'neutral']);

const base = { server: z.string(), direction: Direction };
const toolBase = {
  ...base,
  tool: z.string(),
  /** 1-based, when a report has several tools of this name: they pair in order. */
  occurrence: z.number().int().optional(),
};
const KeyRef = z.object({ name: z.string(), path: z.string(), confidence: Confidence });

export const Change = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('server-added'), ...base, status: z.enum(['ok', 'failed']), tools: z.number().int() }),
  z.object({ kind: z.literal('server-removed'), ...base, status: z.enum(['ok', 'failed']), tools: z.number().int() }),
  z.object({
    kind: z.literal('status-changed'),
    ...base,
    from: z.enum(['ok', 'failed']),
    to: z.enum(['ok', 'failed']),
    /** `kind: message`. */
    failure: z.string().optional(),
  }),
  z.object({
    kind: z.literal('capability-changed'),
    ...base,
    capability: z.literal('tools.idempotency'),
    from: z.boolean(),
    to: z.boolean(),
  }),
  z.object({ kind: z.literal('tool-added'), ...toolBase, verdict: Verdict }),
  z.object({ kind: z.literal('tool-removed'), ...toolBase, verdict: Verdict }),
  z.object({ kind: z.literal('verdict-changed'), ...toolBase, from: Verdict, to: Verdict }),
  z.object({
    kind: z.literal('annotation-changed'),
    ...toolBase,
    hint: z.string(),
    /** JSON-encoded as received; absent when not given. */
    from: z.string().optional(),
    to: z.string().optional(),
  }),
  z.object({ kind: z.literal('key-argument-added'), ...toolBase, key: KeyRef }),
  z.object({ kind: z.literal('key-argument-removed'), ...toolBase, key: KeyRef }),
  z.object({
    kind: z.literal('key-argument-changed'),
    ...toolBase,
    path: z.string(),
    from: Confidence,
    to: Confidence,
  }),
  /** Neutral: the hint, verdict and key changes it brings are listed on their own. */
  z.object({
    kind: z.literal('definition-changed'),
    ...toolBase,
    fields: z.array(z.string()),
    descriptionDiff: z.array(z.string()).optional(),
  }),
]);

const Side = z.object({
  file: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  summary: Summary,
});

export const DiffDocument = z.object({
  diffVersion: z.literal(DIFF_VERSION),
  old: Side,
  new: Side,
  /** What `--fail-on regression` exits 1 on. */
  regression: z.boolean(),
  counts: z.object({ worse: z.number().int(), better: z.number().int(), neutral: z.number().int() }),
  /** By server, server-level changes first, then tools by name and occurrence. */
  changes: z.array(Change),
});

export type Direction = z.infer<typeof Direction>;
export type Change = z.infer<typeof Change>;
export type DiffDocument = z.infer<typeof DiffDocument>;
export type KeyRef = z.infer<typeof KeyRef>;
export type DiffSide = z.infer<typeof Side>;

export function diffJsonSchema(): unknown {
  return z.toJSONSchema(DiffDocument, { target: 'draft-2020-12', io: 'output' });
}
