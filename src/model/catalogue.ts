// Every finding id, written here only; the order is the order findings are reported and SARIF lists rules.
import type { Severity, Verdict } from './schema-base.js';

/** A rule, or a profile's requirement. */
export interface RuleInfo {
  id: string;
  /** A finding may lower or raise it. */
  severity: Severity;
  title: string;
}

/** `connection`: found while listing or reading tools, not by a rule; `probe`: by a probe's experiment. */
type RuleScope = 'tool' | 'server' | 'connection' | 'probe';

interface Entry {
  id: string;
  severity: Severity;
  scope: RuleScope;
  title: string;
  summary: string;
}

const ENTRIES = {
  malformedHint: {
    id: 'malformed-hint',
    severity: 'error',
    scope: 'tool',
    title: 'An annotation hint is not a boolean',
    summary:
      'A behaviour hint is present but not a boolean; strict clients reject the whole tool list, others apply the default.',
  },
  invalidToolName: {
    id: 'invalid-tool-name',
    severity: 'warning',
    scope: 'tool',
    title: 'A tool name breaks the naming rule (1-128 of A-Za-z0-9_.-)',
    summary:
      'A tool name is empty, too long or holds characters outside A-Za-z0-9_.-; some clients reject or rewrite it.',
  },
  missingAnnotations: {
    id: 'missing-annotations',
    severity: 'warning',
    scope: 'tool',
    title: 'A tool has no annotations, so clients must assume a destructive, non-idempotent write',
    summary: 'No behaviour hint at all: the spec defaults make the tool a destructive, non-idempotent write.',
  },
  readNameNotReadOnly: {
    id: 'read-name-not-read-only',
    severity: 'warning',
    scope: 'tool',
    title: 'A tool named like a read is not marked read-only',
    summary: 'The name says it reads, but readOnlyHint is not true, so clients cannot retry it freely.',
  },
  writeNameReadOnly: {
    id: 'write-name-read-only',
    severity: 'error',
    scope: 'tool',
    title: 'A tool named like a write is marked read-only',
    summary: 'The name says it writes, but readOnlyHint is true, so clients retry it freely and may repeat the write.',
  },
  contradictoryHints: {
    id: 'contradictory-hints',
    severity: 'warning',
    scope: 'tool',
    title: 'Hints contradict readOnlyHint: true',
    summary: 'A read-only tool also says it is destructive, or not idempotent.',
  },
  hintsContradictBehaviour: {
    id: 'hints-contradict-behaviour',
    severity: 'error',
    scope: 'probe',
    title: 'The hints claim what a probe saw the tool not do',
    summary:
      'Probed: a tool declared idempotent or keyed repeated its effect on the re-issue, or one declared read-only changed state (error); one declared neither did not repeat it (info).',
  },
  idempotentHintUntrusted: {
    id: 'idempotent-hint-untrusted',
    severity: 'warning',
    scope: 'tool',
    title: 'Retry-safe only by idempotentHint, on a server that is not trusted',
    summary: 'Only idempotentHint says a retry is safe, and hints from an untrusted server are no guarantee.',
  },
  destructiveIdempotentUnkeyed: {
    id: 'destructive-idempotent-unkeyed',
    severity: 'info',
    scope: 'tool',
    title: 'A destructive tool claims idempotency but takes no key',
    summary:
      'idempotentHint is true on a destructive tool with no key: nothing lets a client or server check the claim.',
  },
  weakKeyOnly: {
    id: 'weak-key-only',
    severity: 'warning',
    scope: 'tool',
    title: 'Only weak evidence of an idempotency key',
    summary: 'An argument or the description suggests deduplication, but no argument is a key a client can recognise.',
  },
  genericDispatcher: {
    id: 'generic-dispatcher',
    severity: 'warning',
    scope: 'tool',
    title: 'A generic dispatcher: one verdict cannot describe what it does',
    summary:
      'The tool runs whatever its arguments say (execute_sql, run_command), so its hints hold for some calls only.',
  },
  duplicateToolName: {
    id: 'duplicate-tool-name',
    severity: 'error',
    scope: 'server',
    title: 'Two or more tools of a server share a name',
    summary: 'Two tools share a name; a client can call only one of them.',
  },
  uniformHints: {
    id: 'uniform-hints',
    severity: 'info',
    scope: 'server',
    title: 'Every tool of the server carries the identical hints',
    summary: 'Every tool carries the same hints: probably a default copied onto all of them.',
  },
  idempotencyCapability: {
    id: 'idempotency-capability',
    severity: 'info',
    scope: 'server',
    title: 'The server advertises tools.idempotency (proposed, not in the spec)',
    summary:
      'The server advertises capabilities.tools.idempotency (SEP-3182): only clients that send idempotencyKey benefit.',
  },
  malformedToolEntry: {
    id: 'malformed-tool-entry',
    severity: 'error',
    scope: 'connection',
    title: 'A tools/list entry is not an object or has no string name',
    summary: 'A tools/list entry is not an object or has no string name; it is skipped and the rest of the page kept.',
  },
  stdoutNoise: {
    id: 'stdout-noise',
    severity: 'warning',
    scope: 'connection',
    title: 'The server wrote lines to stdout that are not JSON-RPC',
    summary: 'A stdio server wrote non-JSON-RPC lines to stdout (a banner, a log line), which some clients choke on.',
  },
  paginationLoop: {
    id: 'pagination-loop',
    severity: 'warning',
    scope: 'connection',
    title: 'tools/list returned a cursor it had already given',
    summary: 'tools/list returned a cursor it had already given; listing stopped there.',
  },
  paginationBound: {
    id: 'pagination-bound',
    severity: 'warning',
    scope: 'connection',
    title: 'tools/list had more pages than --max-pages',
    summary: 'tools/list still had pages after --max-pages; listing stopped there.',
  },
  paginationInvalidCursor: {
    id: 'pagination-invalid-cursor',
    severity: 'warning',
    scope: 'connection',
    title: 'tools/list returned a nextCursor that is not a string',
    summary: 'tools/list returned a nextCursor that is not a string; listing stopped there.',
  },
  toolListTruncated: {
    id: 'tool-list-truncated',
    severity: 'warning',
    scope: 'connection',
    title: 'The server listed more tools than idemscan keeps',
    summary: 'The server listed more tools than idemscan keeps per server; the rest are not reported.',
  },
  toolListIncomplete: {
    id: 'tool-list-incomplete',
    severity: 'error',
    scope: 'connection',
    title: 'A later tools/list page failed; only the pages before it are reported',
    summary: 'A later tools/list page failed; only the tools of the pages before it are reported.',
  },
  schemaBudget: {
    id: 'schema-budget',
    severity: 'warning',
    scope: 'connection',
    title: 'Input schemas too large or too deeply referenced to search for keys to the end',
    summary:
      'Some input schemas were too large to search for key arguments to the end; a key past that point is missed.',
  },
  definitionUnhashable: {
    id: 'definition-unhashable',
    severity: 'warning',
    scope: 'connection',
    title:
      'A tool definition holds what JSON cannot (e.g. a number too large to be finite), so it has no definitionHash',
    summary:
      'A tool definition is not JSON data RFC 8785 can canonicalize, so it has no definitionHash and a lock cannot pin it.',
  },
  memoryBudget: {
    id: 'memory-budget',
    severity: 'warning',
    scope: 'connection',
    title: 'The server sent more than idemscan keeps of one server; the list or its texts are cut',
    summary: 'The server sent more than idemscan keeps of one server; its tool list or texts are cut.',
  },
} as const satisfies Record<string, Entry>;

type Entries = typeof ENTRIES;
export type RuleId = Entries[keyof Entries]['id'];
export type RuleIdOf<S extends RuleScope> = {
  [K in keyof Entries]: Entries[K]['scope'] extends S ? Entries[K]['id'] : never;
}[keyof Entries];

/** `docs`: its page under docs/rules, without `.md`. */
export interface RuleEntry extends Entry {
  id: RuleId;
  docs: string;
}

export const RULE = Object.fromEntries(Object.entries(ENTRIES).map(([k, e]) => [k, e.id])) as {
  [K in keyof Entries]: Entries[K]['id'];
};

export const CATALOGUE: readonly RuleEntry[] = Object.values(ENTRIES).map((e) => ({ ...e, docs: e.id }));

const BY_ID = new Map<string, RuleEntry>(CATALOGUE.map((e) => [e.id, e]));

export function ruleEntry(id: RuleId): RuleEntry {
  return BY_ID.get(id)!;
}

export function ruleOrder(id: RuleId): number {
  return CATALOGUE.indexOf(ruleEntry(id));
}

/** A verdict is not a rule, but code scanning needs one for each tool `--fail-on` matched. */
const VERDICT_TITLES = {
  'read-only': 'The tool is read-only, a verdict --fail-on names',
  'protocol-keyed': 'The tool is protocol-keyed, a verdict --fail-on names',
  keyed: 'The tool is keyed, a verdict --fail-on names',
  idempotent: 'The tool is retry-safe only by idempotentHint, a verdict --fail-on names',
  unprotected: 'A retry of the tool may repeat its effect (unprotected), a verdict --fail-on names',
} as const satisfies Record<Verdict, string>;

export function verdictRule(verdict: Verdict): RuleInfo & { docs: string } {
  return { id: `verdict/${verdict}`, severity: 'error', title: VERDICT_TITLES[verdict], docs: 'verdict' };
}
