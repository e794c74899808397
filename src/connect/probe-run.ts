/**
 * The lost-response experiment on an open connection (docs/PROBE.md), one planned tool at a time:
 * observe; call with a fresh key; treat that answer as lost; observe; re-issue the same call with a
 * new JSON-RPC id and the same key; observe; then, if the plan says so, the same key with other
 * arguments. The only code of idemscan that sends `tools/call`, and only to the tools of the plan.
 */
import { randomUUID } from 'node:crypto';
import { classifyTool } from '../classify/index.js';
import { placeKey } from '../classify/key-place.js';
import { judge, type SentCall } from '../classify/probe-outcome.js';
import { advertisesIdempotency } from '../classify/verdict.js';
import { bounded } from '../report/bounds.js';
import type { ToolProbe } from '../report/probe-schema.js';
import type { PlannedTool, ProbePlan } from '../targets/probe-plan.js';
import { ScanFailure } from './failure.js';
import { modernMeta } from './negotiate.js';
import type { OpenSession } from './observe.js';

export interface ProbeRun {
  probes: Map<string, ToolProbe>;
  /** Tools the plan names (to call or to observe with) that the server does not list: nothing was called. */
  missing: string[];
  /** Said once on stderr: an observer not declared read-only. */
  warnings: string[];
}

const ANSWER_CHARS = 500;

export async function runProbe(open: OpenSession, plan: ProbePlan, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<ProbeRun> {
  const listed = new Map(open.tools.map((t) => [String(t.name), t]));
  const named = Object.entries(plan.tools).flatMap(([name, t]) => [name, ...(t.observe ? [t.observe.tool] : [])]);
  const run: ProbeRun = { probes: new Map(), missing: [...new Set(named.filter((n) => !listed.has(n)))], warnings: [] };
  // A plan that does not match the server is a mistake in the plan: nothing at all is called.
  if (run.missing.length > 0) return run;
  const serverKeyed = advertisesIdempotency(open.session.capabilities);
  for (const observer of new Set(Object.values(plan.tools).flatMap((t) => (t.observe ? [t.observe.tool] : [])))) {
    if (classifyTool(listed.get(observer)!, false).verdict !== 'read-only') {
      run.warnings.push(`observer ${JSON.stringify(bounded(observer, 80))} is not declared read-only (readOnlyHint); its calls are real calls too`);
    }
  }
  let ended: string | undefined;
  for (const [name, planned] of Object.entries(plan.tools)) {
    const started = performance.now();
    if (ended || opts.signal?.aborted) {
      const why = opts.signal?.aborted ? 'interrupted' : `the connection ended during an earlier experiment (${ended})`;
      run.probes.set(name, { outcome: 'failed', key: null, evidence: { reason: `not run: ${why}`, calls: [], requests: 0, durationMs: 0 } });
      continue;
    }
    const tool = classifyTool(listed.get(name)!, serverKeyed);
    const key = randomUUID();
    const locations: string[] = [];
    let args = planned.arguments;
    let conflictArgs = planned.conflictArguments;
    for (const k of tool.keyArguments.filter((a) => a.confidence === 'strong')) {
      const put = placeKey(args, k.path, key);
      args = put.args;
      if (conflictArgs) conflictArgs = placeKey(conflictArgs, k.path, key).args;
      if (put.placed) locations.push(k.path);
    }
    if (serverKeyed) locations.push('params.idempotencyKey');
    const calls: SentCall[] = [];
    const send = async (step: string, toolName: string, toolArgs: Record<string, unknown>, keyed: boolean): Promise<SentCall> => {
      const call = await callTool(open, step, toolName, toolArgs, keyed && serverKeyed ? key : undefined, opts.timeoutMs);
      calls.push(call);
      if (call.ended) ended = call.ended;
      return call;
    };
    await experiment(planned, name, args, conflictArgs, send);
    const judged = judge(calls, !!planned.observe);
    run.probes.set(name, {
      outcome: judged.outcome,
      key: locations.length ? locations.join(', ') : null,
      ...(judged.conflict ? { conflict: judged.conflict } : {}),
      evidence: {
        reason: judged.reason,
        ...(planned.observe ? { observer: planned.observe.tool } : {}),
        calls: calls.map(({ compared: _c, why: _w, ended: _e, ...kept }) => kept),
        requests: calls.length,
        durationMs: Math.round(performance.now() - started),
      },
    });
  }
  return run;
}

type Send = (step: string, tool: string, args: Record<string, unknown>, keyed: boolean) => Promise<SentCall>;

/** The steps in order; the first that does not answer well ends the experiment (judge() says which). */
async function experiment(planned: PlannedTool, name: string, args: Record<string, unknown>, conflictArgs: Record<string, unknown> | undefined, send: Send): Promise<void> {
  const observe = async (step: string) => (planned.observe ? (await send(step, planned.observe.tool, planned.observe.arguments, false)).status === 'ok' : true);
  if (!(await observe('observe-before'))) return;
  if ((await send('call', name, args, true)).status !== 'ok') return;
  // The answer above is "lost": the client saw nothing, and re-issues the same request.
  if (!(await observe('observe-after-call'))) return;
  if ((await send('reissue', name, args, true)).status !== 'ok') return;
  if (!(await observe('observe-after-reissue'))) return;
  if (conflictArgs) await send('conflict', name, conflictArgs, true);
}

/** One `tools/call`, always a value: an answer, an error, or silence. */
async function callTool(open: OpenSession, step: string, name: string, args: Record<string, unknown>, idempotencyKey: string | undefined, timeoutMs: number): Promise<SentCall> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (idempotencyKey) params.idempotencyKey = idempotencyKey;
  // Modern requests carry the envelope the listing carried (negotiate.ts), no handshake state.
  if (open.session.era === 'modern') params._meta = modernMeta(open.session.version);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const id = open.rpc.peekNextId();
  try {
    const outcome = await open.rpc.request('tools/call', params, timeoutMs);
    if (!outcome.ok) {
      const type = (outcome.error.data as { type?: unknown } | undefined)?.type;
      const why = `answered error ${outcome.error.code} ${bounded(outcome.error.message, 200)}${typeof type === 'string' ? ` (${bounded(type, 60)})` : ''}`;
      return { step, tool: name, id, ms: ms(), status: 'error', answer: why, why };
    }
    const r = outcome.result;
    const compared = JSON.stringify({ content: r.content, structuredContent: r.structuredContent }) ?? '';
    const answer = bounded(textOf(r.content) ?? compared, ANSWER_CHARS);
    if (r.isError === true) return { step, tool: name, id, ms: ms(), status: 'tool-error', answer, compared, why: `answered isError: true (${bounded(answer, 200)})` };
    return { step, tool: name, id, ms: ms(), status: 'ok', answer, compared };
  } catch (err) {
    const failure = err instanceof ScanFailure ? err : new ScanFailure('protocol', String((err as Error)?.message ?? err));
    // A timeout leaves the connection usable; an exit or a closed stream ends every later experiment.
    const timedOut = failure.kind === 'timeout' && failure.message !== 'interrupted';
    const why = timedOut ? `no answer: ${failure.message} (--timeout)` : `no answer: the connection ended (${failure.message})`;
    return { step, tool: name, id, ms: ms(), status: 'no-answer', answer: why, why, ...(timedOut ? {} : { ended: failure.message }) };
  }
}

/** The text parts of a result's content, joined: what a person reads of it. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((c) => (c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string' ? [(c as { text: string }).text] : []));
  return texts.length ? texts.join('\n') : undefined;
}
