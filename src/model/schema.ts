/**
 * The report contract (DESIGN.md §3). These zod schemas are the single source of the report's
 * TypeScript types and of the JSON Schema that `idemscan schema` prints. Field names are public:
 * add fields freely, rename none.
 */
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

/** `interrupted`: a signal (Ctrl-C) ended the scan before the server answered; reports before it said `timeout`. */
export const FailureKind = z.enum(['spawn', 'exited', 'timeout', 'interrupted', 'auth', 'unreachable', 'protocol']);

export const Finding = z.object({
  rule: z.string(),
  severity: Severity,
  message: z.string(),
  /** Tool the finding is about (server-level findings have none). */
  tool: z.string().optional(),
  /** Where the evidence is: an annotation field, an argument path, a list page. */
  evidence: z.string().optional(),
  /** The remedy, where it is an annotation: the exact hints to add to the tool (docs/rules/<rule>.md). */
  fix: z.object({ annotations: z.record(z.string(), z.boolean()) }).optional(),
  /** Set by `--suppress` (compare/suppress.ts): kept in the report, dismissed in SARIF, not counted by --fail-on. */
  suppressed: z
    .object({
      reason: z.string(),
      /** The entry's `expires` date (YYYY-MM-DD), when it has one. */
      expires: z.string().optional(),
      /** The suppression file (base name). */
      file: z.string().optional(),
    })
    .optional(),
});

export const KeyArgument = z.object({
  name: z.string(),
  /** JSONPath into the tool's arguments object, e.g. `$.options.clientToken`. */
  path: z.string(),
  confidence: Confidence,
  /** Why it was taken for a key: `name`, `description`, or `name and description` (a weak name its description calls a key). */
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
  /** Annotations exactly as received (unknown keys and ill-typed values included). */
  annotations: z.record(z.string(), z.unknown()).optional(),
  effective: EffectiveHints,
  verdict: Verdict,
  keyArguments: z.array(KeyArgument),
  /**
   * `sha256:<hex>` of the RFC 8785 canonical JSON of the tool's definition (name, title,
   * description, inputSchema, outputSchema, annotations) as received, before any cut or redaction
   * (docs/DEFINITION-HASH.md). Absent when it is not JSON data (finding `definition-unhashable`).
   */
  definitionHash: z.string().optional(),
  /** The same hash of each present definition field's value alone: which fields changed. */
  fieldHashes: z.record(z.string(), z.string()).optional(),
  findings: z.array(Finding),
  /** `idemscan probe` only: the lost-response experiment on this tool (docs/PROBE.md). */
  probe: ToolProbe.optional(),
  /** `idemscan probe`, a tool the plan lists cases for: one experiment per case, in plan order (each with `case`); then `probe` is absent. */
  probes: z.array(ToolProbe).optional(),
  /**
   * Set by `--suppress` (compare/suppress.ts) when an entry names this tool's verdict: reviewed and
   * accepted, so `--fail-on <verdict>` does not count the tool; SARIF shows its result dismissed.
   */
  accepted: z
    .object({
      /** The verdict accepted (the tool's `verdict` when the report was made). */
      verdict: Verdict,
      reason: z.string(),
      /** The entry's `expires` date (YYYY-MM-DD), when it has one. */
      expires: z.string().optional(),
      /** The suppression file (base name). */
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
  /** `static`: a saved tools/list result (`audit --tools`), classified without contacting the server. */
  transport: z.enum(['stdio', 'http', 'sse', 'static']),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** Names of the environment variables the target declares; values are never reported. */
  env: z.array(z.string()).optional(),
  url: z.string().optional(),
  /** Names of the headers the target declares; values are never reported. */
  headers: z.array(z.string()).optional(),
  npm: z.string().optional(),
  /** A pinned PyPI package (`name==1.2.3`), run from its virtual environment in the cache. */
  pypi: z.string().optional(),
  /** The PEP 503 index the PyPI package came from, when not PyPI's. */
  index: z.string().optional(),
  /** A `.mcpb` bundle: where it was downloaded from and the sha256 it was checked against. */
  mcpb: z.object({ url: z.string(), sha256: z.string() }).optional(),
  /** An OCI image as the target names it, and the digest it resolved to at install (`digest`). */
  oci: z.string().optional(),
  digest: z.string().optional(),
  /** A server the config starts through a package runner (`npx -y pkg@^1 ...`), scanned as the npm
   * package `npm`: the runner, the package as the config wrote it, and whether its version was
   * resolved by idemscan (the config did not pin one; `npm` is then the version resolved). */
  launcher: z.object({ runner: z.string(), spec: z.string(), resolved: z.boolean() }).optional(),
  /** The resolved launch (the installed package's entry point) when `npm` is used. */
  resolved: z.string().optional(),
  /** Env or header names given obvious fake values (registry secrets), never real ones. */
  fakeEnv: z.array(z.string()).optional(),
  source: z.string().optional(),
  /** Monthly npm downloads recorded in the target list (`downloads`), for use-weighted figures. */
  downloads: z.number().int().nonnegative().optional(),
  /** The MCP clients whose configuration lists this server, and in which file (`scan --discover`;
   * one server listed by several clients is scanned once). Paths only, never config values. */
  listedBy: z.array(z.object({ client: z.string(), file: z.string() })).optional(),
  /** How a stdio server was contained (docs/SANDBOX.md): bubblewrap or the network-only namespace
   * under --sandbox, none without it (its own PID namespace and /proc), none-host-proc without it
   * where this machine gives no fresh /proc (the server sees the host's processes and their
   * /proc entries), container for an OCI image (the engine contains it: no network, no
   * capabilities, read-only). Absent for HTTP servers. */
  sandbox: z.enum(['bubblewrap', 'netns', 'none', 'none-host-proc', 'container']).optional(),
  /** `--writable`: the directories bound read-write into bubblewrap (the user's choice), real paths. */
  writable: z.array(z.string()).optional(),
});

export const ProtocolInfo = z.object({
  era: z.enum(['modern', 'legacy']),
  version: z.string(),
  /** How the era was found, e.g. "no answer to server/discover within 2000 ms". */
  negotiation: z.string().optional(),
});

/**
 * What an HTTP server that answered 401 or 403 published about its authorization, read
 * without signing in: its `WWW-Authenticate` challenge, its protected resource metadata (RFC 9728)
 * and its authorization server's metadata (RFC 8414 / OpenID discovery). Every value is the
 * server's own claim, bounded; an ecosystem report counts who requires OAuth and with which setup.
 */
export const AuthInfo = z.object({
  /** Always true: the server refused an unauthenticated (or wrongly authenticated) request. */
  required: z.boolean(),
  /** The HTTP status that said so (401 or 403). */
  status: z.number().int(),
  /** The challenge's scheme (`Bearer`, `DPoP`, `Basic`, ...), lower-cased; absent without a `WWW-Authenticate` header. */
  scheme: z.string().optional(),
  /** The challenge's `error` (e.g. `invalid_token`, `insufficient_scope`). */
  error: z.string().optional(),
  /** The protected resource metadata URL: from the challenge's `resource_metadata`, else the RFC 9728 well-known URL that answered. */
  resourceMetadata: z.string().optional(),
  /** The `resource` that metadata names. */
  resource: z.string().optional(),
  /** Its `authorization_servers`. */
  authorizationServers: z.array(z.string()).optional(),
  /** Scopes the resource metadata lists (`scopes_supported`), else the challenge's `scope`. */
  scopesSupported: z.array(z.string()).optional(),
  /**
   * How a client gets a client id at the first authorization server: `cimd` (it accepts Client ID
   * Metadata Documents), `dcr` (it has a `registration_endpoint`), `preregistered` (neither: a client
   * must be registered by hand), `unknown` (its metadata could not be read).
   */
  registration: z.enum(['dcr', 'cimd', 'preregistered', 'unknown']),
  /** Whether idemscan held a token for this server (stored or signed in during this scan). */
  signedIn: z.boolean().optional(),
  /** What could not be read or was refused (a metadata URL over plain http, a cross-origin redirect, a timeout). */
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
  /** Present when this HTTP server answered 401/403: what it published about OAuth (AuthInfo). */
  auth: AuthInfo.optional(),
  durationMs: z.number(),
  tools: z.array(ToolReport),
  findings: z.array(Finding),
  /** A scanned server's answer: what a client may do with its tools (model/advice.ts; filled when an older report is read). */
  advice: ServerAdvice.optional(),
  /** `idemscan probe` with a plan's `setup`: its calls, once, before the experiments (docs/PROBE.md). */
  probeSetup: ProbeSetup.optional(),
});

const driftTool = { server: z.string(), tool: z.string(), occurrence: z.number().int().optional() };

/** One difference between a scan and its lock file (`--baseline`); src/compare/drift.ts. */
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
    /** Fields whose hash changed (added or removed ones too); empty when a side has no hash. */
    fields: z.array(z.string()),
    /** A short line diff of the description (`- old`, `+ new`), when it changed. */
    descriptionDiff: z.array(z.string()).optional(),
  }),
  /** A hint a client may rely on less than before (compare/diff.ts hintDirection): raw values, JSON-encoded. */
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
  /** The lock file as given to --baseline. */
  baseline: z.string(),
  lockedAt: z.string(),
  drifted: z.boolean(),
  changes: z.array(DriftChange),
});

/**
 * An earlier report this one is compared with, over the servers present in both: the diff is
 * computed once (compare/trend.ts) and stored, so every reporter shows the same result.
 */
export const ComparedWith = z.object({
  /** The earlier report's file name (base name only: no local path is published). */
  file: z.string(),
  /** `--compare latest`: the run directory of the index the earlier report is in (`2026-11-30`). */
  run: z.string().max(100).optional(),
  /** `--compare latest`: the earlier report's path relative to the index root (`2026-11-30/report.json`). */
  path: z.string().max(300).optional(),
  startedAt: z.string(),
  /** Servers present in both reports: the only ones the diff covers. */
  serversInBoth: z.number().int(),
  /** Servers only in the earlier report, and only in this one (not compared). */
  onlyOld: z.number().int(),
  onlyNew: z.number().int(),
  /** `idemscan diff` of the two reports restricted to the servers in both (summaries recounted over them). */
  diff: DiffDocument,
  /** True when the earlier report covers a different list (compare/run-list.ts `listOf`): the trend
   * section says so instead of comparing two lists silently. */
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
      /** A page under docs/rules without `.md` (builtin profiles), or an https URL; nothing else (rule-pages.ts). */
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

/**
 * `options`: what the run was asked for, as `scan()` (src/app/scan/scan.ts), the signal handler, `merge`,
 * `--suppress` and `probe` write it, in that order (zod keeps the order of the fields named here,
 * then the rest). Every field is optional and unknown keys pass through, so older reports load.
 */
const loose = <T extends z.ZodRawShape>(shape: T) => z.object(shape).catchall(z.unknown());
export const ReportOptions = loose({
  concurrency: z.number().optional(),
  httpConcurrency: z.number().optional(),
  timeoutMs: z.number().optional(),
  probeTimeoutMs: z.number().optional(),
  maxPages: z.number().optional(),
  sandbox: z.boolean().optional(),
  /** `--writable`: the directories bound read-write into the sandbox. */
  writable: z.array(z.string()).optional(),
  /** `--trust`: the server names whose hints are trusted. */
  trust: z.array(z.string()).optional(),
  /** Ended by a signal: `scanned` of `targets` servers were. */
  interrupted: z.boolean().optional(),
  scanned: z.number().optional(),
  targets: z.number().optional(),
  /** `scan --resume`: servers read back from the spool of an interrupted run (docs/SCALING.md). */
  resumed: z.number().int().nonnegative().optional(),
  profiles: z.array(ProfileUse).optional(),
  shard: loose({ index: z.number(), count: z.number() }).optional(),
  /** `merge`: the shard files this report was made of. */
  mergedFrom: z.array(z.string()).optional(),
  suppress: loose({
    file: z.string(),
    entries: z.number(),
    /** Findings suppressed. */
    applied: z.number(),
    expired: z.number(),
    /** Tools whose verdict an entry accepted (`verdict` entries); absent when none. */
    accepted: z.number().optional(),
  }).optional(),
  probe: loose({ tools: z.array(z.string()) }).optional(),
});

/** `manifest`: how the run was made, so others can reproduce it (unknown keys pass through). */
export const Manifest = loose({
  node: z.string().optional(),
  platform: z.string().optional(),
  /** The package specs the run launched, sorted. */
  packages: z.array(z.string()).optional(),
  installs: z.array(loose({ spec: z.string(), ok: z.boolean(), ms: z.number() })).optional(),
  scanMs: z.number().optional(),
});

export const Report = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  /** ISO 8601 in UTC, as `Date.toISOString()` writes it: run indexes and trends order runs by them. */
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  options: ReportOptions,
  summary: Summary,
  servers: z.array(ServerReport),
  /** Target entries that could not be read and were skipped (bad config, never scanned). */
  skipped: z.array(z.object({ name: z.string(), source: z.string(), reason: z.string() })).optional(),
  /** How the run was made: versions and platform, so others can reproduce it. */
  manifest: Manifest.optional(),
  /** What changed since the lock file given to `--baseline`. */
  drift: Drift.optional(),
  /** The trend since an earlier report (`report --compare`, `merge --compare`; compare/trend.ts). */
  comparedWith: ComparedWith.optional(),
  /** What `--fail-on` matched (model/gate.ts); absent without --fail-on. */
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
