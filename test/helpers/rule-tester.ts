/**
 * The rule tester (CONTRIBUTING.md, "Add a rule"), after ESLint's RuleTester: each rule of the
 * catalogue has one fixture, test/rules/<id>.cases.ts, of `valid` inputs that must not raise it and
 * `invalid` ones that must, with what each finding says. test/unit/rules.test.ts runs every table
 * through the listing and the classification `scan()` runs (connect/list.ts, classify/index.ts),
 * on the tools/list answers a case gives; a case with `stdout` lines needs a stdio server and runs
 * in test/integration/rules-stdio.test.ts instead, on a real process.
 */
import { expect } from 'vitest';
import { withAgreement } from '../../src/classify/behaviour.js';
import { classifyServer } from '../../src/classify/index.js';
import type { ToolProbe } from '../../src/model/probe-schema.js';
import { keptSession, ServerBudget } from '../../src/connect/budget.js';
import { listTools } from '../../src/connect/list.js';
import type { RpcOutcome } from '../../src/connect/rpc.js';
import type { RuleId } from '../../src/model/catalogue.js';
import { DEFAULTS } from '../../src/model/limits.js';
import { sizeEstimate } from '../../src/model/budget.js';
import type { Finding, Severity } from '../../src/model/schema.js';

type Raw = Record<string, unknown>;

/** One tools/list answer: a result (`{ tools, nextCursor }`) or a JSON-RPC error. */
type Reply = { result: Raw } | { error: { code: number; message: string } };

/** What a server sent, and what the scan knows of it. */
export interface ServerInput {
  /** One tools/list page: short for `pages: [{ result: { tools } }]`. */
  tools?: unknown[];
  /** Each tools/list answer, in the order the requests are sent (each cursor followed gets the next). */
  pages?: Reply[];
  capabilities?: Raw;
  /** `--trust`. */
  trusted?: boolean;
  /** The scan's bounds of the same names (DEFAULTS otherwise). */
  limits?: { maxPages?: number; maxTools?: number; maxServerBytes?: number };
  /** Lines a stdio server writes on stdout before it answers: the case runs on a real process. */
  stdout?: string[];
  /** What `idemscan probe` saw of a tool, by name: its experiment's outcome. */
  probes?: Record<string, ToolProbe>;
}

/** What one finding of the rule must show; `message` is a fragment of its message. */
interface ExpectedFinding {
  message?: string;
  tool?: string;
  severity?: Severity;
  evidence?: string;
}

export interface RuleCase {
  /** What the case shows: its test's title. */
  name: string;
  input: ServerInput;
  /** Every rule the input raises, in report order (the server's findings, then each tool's): what the other rules leave alone too. */
  raises?: RuleId[];
}

export interface InvalidCase extends RuleCase {
  /** One per finding of the rule, in order: exactly these many. */
  errors: ExpectedFinding[];
}

export interface RuleCases {
  valid: RuleCase[];
  invalid: InvalidCase[];
}

/** Typed, so that a fixture's mistakes are compile errors (`npm run typecheck`). */
export const ruleCases = (cases: RuleCases): RuleCases => cases;

export const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean) => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
});

/** An input schema of string properties. */
export const schema = (...props: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
});

export const needsStdio = (input: ServerInput): boolean => input.stdout !== undefined;

/** The findings of one server in report order: its own (the listing's, then the server rules'), then each tool's. */
export async function findingsOf(input: ServerInput): Promise<Finding[]> {
  if (needsStdio(input)) throw new Error('a case with stdout lines runs on a stdio server (rules-stdio.test.ts)');
  const replies = input.pages ?? [{ result: { tools: input.tools ?? [] } }];
  let next = 0;
  const rpc = {
    request: (): Promise<RpcOutcome> => {
      const reply = replies[next++] ?? { error: { code: -32603, message: 'the case has no more pages' } };
      return Promise.resolve('error' in reply ? { ok: false, error: reply.error } : { ok: true, result: reply.result });
    },
  };
  const limits = { ...DEFAULTS, ...input.limits };
  const session = keptSession({ era: 'legacy', version: '2025-06-18', capabilities: input.capabilities, notes: [] });
  // As connect/observe.ts charges a session before it lists.
  const budget = new ServerBudget(limits.maxServerBytes);
  budget.charge(sizeEstimate([session.capabilities, session.serverInfo, session.notes]));
  const listing = await listTools(rpc, session, { ...limits, remainingMs: () => DEFAULTS.timeoutMs, budget });
  const classified = classifyServer({
    name: 's',
    capabilities: session.capabilities,
    trusted: input.trusted,
    rawTools: listing.tools,
  });
  const probe = (name: string) => input.probes?.[name];
  const tools = classified.tools.map((t) => (probe(t.name) ? withAgreement({ ...t, probe: probe(t.name) }) : t));
  return [...listing.findings, ...classified.findings, ...tools.flatMap((t) => t.findings)];
}

/** RuleTester's checks: a valid case raises none of the rule, an invalid one exactly its errors. */
export function checkCase(id: RuleId, c: RuleCase | InvalidCase, findings: Finding[]): void {
  if (c.raises) expect(findings.map((f) => f.rule)).toEqual(c.raises);
  const mine = findings.filter((f) => f.rule === id);
  const errors = 'errors' in c ? c.errors : [];
  expect(mine.map(({ tool, severity, evidence }) => ({ tool, severity, evidence }))).toMatchObject(
    errors.map(({ tool, severity, evidence }) => ({
      ...(tool === undefined ? {} : { tool }),
      ...(severity === undefined ? {} : { severity }),
      ...(evidence === undefined ? {} : { evidence }),
    })),
  );
  errors.forEach((e, i) => {
    if (e.message !== undefined) expect(mine[i]!.message).toContain(e.message);
  });
}
