/** The report contract (DESIGN.md §3) and its JSON Schema. Field names are public: add freely, rename none. */
import { z } from 'zod';
import { DiffDocument } from './diff.js';
import { docsProblem } from './rule-pages.js';
import { Confidence, Severity, Summary, Verdict } from './schema-base.js';
import { ProbeSetup, ToolProbe } from './probe-schema.js';
import { Gate } from './gate.js';
import { ServerAdvice } from './advice-schema.js';

export { Confidence, Severity, Summary, Verdict, WeightedShare, WeightedSummary } from './schema-base.js';
import { SCHEMA_VERSION } from './schema-version.js';

export { SCHEMA_VERSION };

/** `interrupted`: a signal (Ctrl-C) ended the scan before the server answered. */
export const FailureKind = z.enum(['spawn', 'exited', 'timeout', 'interrupted', 'auth', 'unreachable', 'protocol']);

export const Finding = z.object({
  rule: z.string(),
  severity: Severity,
  message: z.string(),
  tool: z.string().optional(),
  /** An annotation field, an argument path or a list page. */
  evidence: z.string().optional(),
  /** The exact hints to add to the tool, where the remedy is an annotation. */
  fix: z.object({ annotations: z.record(z.string(), z.boolean()) }).optional(),
  /** Set by `--suppress`: kept in the report, dismissed in SARIF, not counted by --fail-on. */
  suppressed: z
    .object({
      reason: z.string(),
      /** YYYY-MM-DD. */
      expires: z.string().optional(),
      /** Base name of the suppression file. */
      file: z.string().optional(),
    })
    .optional(),
});

export const KeyArgument = z.object({
  name: z.string(),
  /** JSONPath into the arguments, e.g. `$.options.clientToken`. */
  path: z.string(),
  confidence: Confidence,
  /** `name`, `description`, or `name and description` (a weak name its description calls a key). */
  reason: z.string().optional(),
});

export const EffectiveHints = z.object({
  readOnly: z.boolean(),
  destructive: z.boolean(),
  idempotent: z.boolean(),
  openWorld: z.boolean(),
});

export const ToolReport = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** As received, unknown keys and ill-typed values included. */
  annotations: z.record(z.string(), z.unknown()).optional(),
  effective: EffectiveHints,
  verdict: Verdict,
  keyArguments: z.array(KeyArgument),
  /** RFC 8785 SHA-256 of the definition as received (docs/DEFINITION-HASH.md); absent when not JSON data. */
  definitionHash: z.string().optional(),
  /** The same hash per definition field: which fields changed. */
  fieldHashes: z.record(z.string(), z.string()).optional(),
  findings: z.array(Finding),
  /** `idemscan probe`: the lost-response experiment (docs/PROBE.md). */
  probe: ToolProbe.optional(),
  /** One experiment per plan case, in plan order, instead of `probe`. */
  probes: z.array(ToolProbe).optional(),
  /** A `--suppress` entry accepted this verdict: `--fail-on` skips the tool, SARIF dismisses it. */
  accepted: z
    .object({
      verdict: Verdict,
      reason: z.string(),
      /** YYYY-MM-DD. */
      expires: z.string().optional(),
      /** Base name of the suppression file. */
      file: z.string().optional(),
    })
    .optional(),
});

export const Failure = z.object({
  kind: FailureKind,
  message: z.string(),
  stderr: z.string().optional(),
});

/** A redacted launch recipe: enough to see what was started, never a secret value. */
export const TargetInfo = z.object({
  /** `static`: a saved tools/list result (`audit --tools`), never contacted. */
  transport: z.enum(['stdio', 'http', 'sse', 'static']),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** Names only, never values. */
  env: z.array(z.string()).optional(),
  url: z.string().optional(),
  /** Names only, never values. */
  headers: z.array(z.string()).optional(),
  npm: z.string().optional(),
  /** A pinned PyPI package (`name==1.2.3`). */
  pypi: z.string().optional(),
  /** The PEP 503 index, when not PyPI's. */
  index: z.string().optional(),
  /** A `.mcpb` bundle's URL and the sha256 it was checked against. */
  mcpb: z.object({ url: z.string(), sha256: z.string() }).optional(),
  /** An OCI image as named; `digest` is what it resolved to at install. */
  oci: z.string().optional(),
  digest: z.string().optional(),
  /** A package runner launch (`npx -y pkg@^1`) scanned as `npm`; `resolved`: idemscan picked the version. */
  launcher: z.object({ runner: z.string(), spec: z.string(), resolved: z.boolean() }).optional(),
  /** The installed package's entry point, with `npm`. */
  resolved: z.string().optional(),
  /** Env or header names given obvious fake values (registry secrets). */
  fakeEnv: z.array(z.string()).optional(),
  source: z.string().optional(),
  /** Monthly npm downloads from the target list, for use-weighted figures. */
  downloads: z.number().int().nonnegative().optional(),
  /** `scan --discover`: the clients whose config lists this server, by path only. */
  listedBy: z.array(z.object({ client: z.string(), file: z.string() })).optional(),
  /** How a stdio server was contained (docs/SANDBOX.md); absent for HTTP servers. */
  sandbox: z.enum(['bubblewrap', 'netns', 'none', 'none-host-proc', 'container']).optional(),
  /** `--writable` directories bound read-write, as real paths. */
  writable: z.array(z.string()).optional(),
});

export const ProtocolInfo = z.object({
  era: z.enum(['modern', 'legacy']),
  version: z.string(),
  /** E.g. "no answer to server/discover within 2000 ms". */
  negotiation: z.string().optional(),
});

/** What a server that answered 401/403 publishes about authorization (RFC 9728, RFC 8414): its claims, bounded. */
export const AuthInfo = z.object({
  /** Always true. */
  required: z.boolean(),
  status: z.number().int(),
  /** The `WWW-Authenticate` scheme, lower-cased. */
  scheme: z.string().optional(),
  error: z.string().optional(),
  /** The challenge's `resource_metadata`, else the RFC 9728 well-known URL that answered. */
  resourceMetadata: z.string().optional(),
  resource: z.string().optional(),
  authorizationServers: z.array(z.string()).optional(),
  /** `scopes_supported`, else the challenge's `scope`. */
  scopesSupported: z.array(z.string()).optional(),
  /** How a client gets a client id: `cimd`, `dcr`, `preregistered` (by hand), `unknown` (unreadable metadata). */
  registration: z.enum(['dcr', 'cimd', 'preregistered', 'unknown']),
  /** idemscan held a token for this server (stored or signed in during this scan). */
  signedIn: z.boolean().optional(),
  /** What could not be read or was refused (plain-http metadata, a cross-origin redirect, a timeout). */
  problems: z.array(z.string()).optional(),
});

export const ServerReport = z.object({
  name: z.string(),
  status: z.enum(['ok', 'failed']),
  failure: Failure.optional(),
  target: TargetInfo,
  protocol: ProtocolInfo.optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).partial().passthrough().optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
  idempotencyCapability: z.boolean(),
  trusted: z.boolean().optional(),
  auth: AuthInfo.optional(),
  durationMs: z.number(),
  tools: z.array(ToolReport),
  findings: z.array(Finding),
  /** What a client may do with its tools (model/advice.ts). */
  advice: ServerAdvice.optional(),
  /** A plan's `setup` calls, made once before the experiments (docs/PROBE.md). */
  probeSetup: ProbeSetup.optional(),
});

const driftTool = { server: z.string(), tool: z.string(), occurrence: z.number().int().optional() };

/** One difference between a scan and its `--baseline` lock file. */
export const DriftChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('server-added'), server: z.string(), tools: z.number().int() }),
  z.object({ kind: z.literal('server-removed'), server: z.string(), tools: z.number().int() }),
  /** Locked with tools, not scanned now: its definitions cannot be checked. */
  z.object({ kind: z.literal('server-failed'), server: z.string(), failure: z.string().optional() }),
  z.object({ kind: z.literal('tool-added'), ...driftTool, verdict: Verdict }),
  z.object({ kind: z.literal('tool-removed'), ...driftTool, verdict: Verdict }),
  z.object({
    kind: z.literal('definition-changed'),
    ...driftTool,
    /** Fields whose hash changed, added or removed; empty when a side has no hash. */
    fields: z.array(z.string()),
    descriptionDiff: z.array(z.string()).optional(),
  }),
  /** A hint a client may rely on less than before; raw values, JSON-encoded. */
  z.object({
    kind: z.literal('hint-weakened'),
    ...driftTool,
    hint: z.string(),
    from: z.string().optional(),
    to: z.string().optional(),
  }),
  z.object({ kind: z.literal('verdict-worse'), ...driftTool, from: Verdict, to: Verdict }),
]);

export const Drift = z.object({
  baseline: z.string(),
  lockedAt: z.string(),
  drifted: z.boolean(),
  changes: z.array(DriftChange),
});

/** An earlier report compared over the servers in both; the diff is stored so every reporter agrees. */
export const ComparedWith = z.object({
  /** Base name only: no local path is published. */
  file: z.string(),
  /** `--compare latest`: the index's run directory (`2026-11-30`). */
  run: z.string().max(100).optional(),
  /** `--compare latest`: the path relative to the index root. */
  path: z.string().max(300).optional(),
  startedAt: z.string(),
  serversInBoth: z.number().int(),
  /** Servers in one report only, not compared. */
  onlyOld: z.number().int(),
  onlyNew: z.number().int(),
  /** Restricted to the servers in both, summaries recounted. */
  diff: DiffDocument,
  /** The earlier report covers a different list, which the trend section says. */
  differentList: z.boolean().optional(),
});

/** A profile a scan checked (`--profile`): its rules, and for a file its path and sha256. */
export const ProfileUse = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string().optional(),
  sha256: z.string().optional(),
  rules: z.array(
    z.object({
      id: z.string(),
      severity: Severity,
      title: z.string(),
      /** A page under docs/rules without `.md`, or an https URL (rule-pages.ts). */
      docs: z
        .string()
        .superRefine((docs, ctx) => {
          const problem = docsProblem(docs);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .optional(),
    }),
  ),
});

/** `options`: all optional, unknown keys pass through so older reports load; zod keeps this field order. */
const loose = <T extends z.ZodRawShape>(shape: T) => z.object(shape).catchall(z.unknown());
export const ReportOptions = loose({
  concurrency: z.number().optional(),
  httpConcurrency: z.number().optional(),
  timeoutMs: z.number().optional(),
  probeTimeoutMs: z.number().optional(),
  maxPages: z.number().optional(),
  sandbox: z.boolean().optional(),
  writable: z.array(z.string()).optional(),
  trust: z.array(z.string()).optional(),
  /** Ended by a signal: `scanned` of `targets` servers were. */
  interrupted: z.boolean().optional(),
  scanned: z.number().optional(),
  targets: z.number().optional(),
  /** `scan --resume`: servers read back from the spool (docs/SCALING.md). */
  resumed: z.number().int().nonnegative().optional(),
  profiles: z.array(ProfileUse).optional(),
  shard: loose({ index: z.number(), count: z.number() }).optional(),
  mergedFrom: z.array(z.string()).optional(),
  suppress: loose({
    file: z.string(),
    entries: z.number(),
    /** Findings suppressed. */
    applied: z.number(),
    expired: z.number(),
    /** Tools whose verdict an entry accepted. */
    accepted: z.number().optional(),
  }).optional(),
  probe: loose({ tools: z.array(z.string()), auto: z.boolean().optional() }).optional(),
});

/** How the run was made, so others can reproduce it. */
export const Manifest = loose({
  node: z.string().optional(),
  platform: z.string().optional(),
  /** Sorted. */
  packages: z.array(z.string()).optional(),
  installs: z.array(loose({ spec: z.string(), ok: z.boolean(), ms: z.number() })).optional(),
  scanMs: z.number().optional(),
});

export const Report = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  /** `Date.toISOString()` UTC: run indexes and trends order runs by it. */
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  options: ReportOptions,
  summary: Summary,
  servers: z.array(ServerReport),
  /** Target entries that could not be read, never scanned. */
  skipped: z.array(z.object({ name: z.string(), source: z.string(), reason: z.string() })).optional(),
  manifest: Manifest.optional(),
  /** Since the `--baseline` lock file. */
  drift: Drift.optional(),
  /** `report --compare`, `merge --compare`. */
  comparedWith: ComparedWith.optional(),
  /** What `--fail-on` matched. */
  gate: Gate.optional(),
});

export type FailureKind = z.infer<typeof FailureKind>;
export type Finding = z.infer<typeof Finding>;
export type KeyArgument = z.infer<typeof KeyArgument>;
export type EffectiveHints = z.infer<typeof EffectiveHints>;
export type ToolReport = z.infer<typeof ToolReport>;
export type Failure = z.infer<typeof Failure>;
export type AuthInfo = z.infer<typeof AuthInfo>;
export type TargetInfo = z.infer<typeof TargetInfo>;
export type ServerReport = z.infer<typeof ServerReport>;
export type ComparedWith = z.infer<typeof ComparedWith>;
export type DriftChange = z.infer<typeof DriftChange>;
export type Drift = z.infer<typeof Drift>;
export type ProfileUse = z.infer<typeof ProfileUse>;
export type Report = z.infer<typeof Report>;
export type { Gate, GateMatch } from './gate.js';
export type { ServerAdvice } from './advice-schema.js';

export function reportJsonSchema(): unknown {
  return z.toJSONSchema(Report, { target: 'draft-2020-12', io: 'output' });
}
