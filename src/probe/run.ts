/**
 * The lost-response experiment on an open connection (docs/PROBE.md), one planned tool at a time:
 * observe; call with a fresh key; treat that answer as lost; observe; re-issue the same call with a
 * new JSON-RPC id and the same key; observe; then, if the plan says so, the same key with other
 * arguments. The only code of idemscan that sends `tools/call`, and only to the tools of the plan.
 */
import { bounded } from '../model/bounds.js';
import type { ProbeExperiment, RanExperiment, SentCall } from '../model/probe-schema.js';
import type { ScanFailure } from '../connect/failure.js';
import type { RpcOutcome } from '../connect/rpc.js';
import type { Session } from '../connect/session.js';

const ANSWER_CHARS = 500;

/**
 * Runs the experiments classify/probe-prepare.ts made, in order, each call bounded by `timeoutMs`
 * (a planned tool's own calls by its plan's `timeoutMs` when it has one); always values, never a
 * throw. A connection that ended leaves the later experiments not run.
 */
export async function runExperiments(
  session: Session,
  experiments: readonly ProbeExperiment[],
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<RanExperiment[]> {
  const out: RanExperiment[] = [];
  let ended: string | undefined;
  for (const e of experiments) {
    const started = performance.now();
    if (ended || opts.signal?.aborted) {
      out.push({
        calls: [],
        durationMs: 0,
        notRun: opts.signal?.aborted ? 'interrupted' : `the connection ended during an earlier experiment (${ended})`,
      });
      continue;
    }
    const calls: SentCall[] = [];
    const send = async (
      step: string,
      toolName: string,
      toolArgs: Record<string, unknown>,
      keyed: boolean,
    ): Promise<SentCall> => {
      const bound = boundOf(e, toolName, opts.timeoutMs);
      const call = await callTool(session, step, toolName, toolArgs, keyed && e.protocolKey ? e.key : undefined, bound);
      calls.push(call);
      if (call.ended) ended = call.ended;
      return call;
    };
    await experiment(e, send);
    out.push({ calls, durationMs: Math.round(performance.now() - started) });
  }
  return out;
}

type Send = (step: string, tool: string, args: Record<string, unknown>, keyed: boolean) => Promise<SentCall>;

/** How long one call may go unanswered, and what set it (named in a `no answer` reason). */
interface Bound {
  ms: number;
  from: string;
}

/** The plan's bound is the tool's own: its observer is another tool and keeps --timeout. */
function boundOf(e: ProbeExperiment, toolName: string, timeoutMs: number): Bound {
  if (toolName === e.name && e.timeoutMs) return { ms: e.timeoutMs, from: "the plan's timeoutMs" };
  return { ms: timeoutMs, from: '--timeout' };
}

/** The steps in order; the first that does not answer well ends the experiment (judge() says which). */
async function experiment(e: ProbeExperiment, send: Send): Promise<void> {
  const { name, arguments: args, conflictArguments: conflictArgs } = e;
  const observe = async (step: string) =>
    e.observe ? (await send(step, e.observe.tool, e.observe.arguments, false)).status === 'ok' : true;
  if (!(await observe('observe-before'))) return;
  if ((await send('call', name, args, true)).status !== 'ok') return;
  // The answer above is "lost": the client saw nothing, and re-issues the same request.
  if (!(await observe('observe-after-call'))) return;
  const again = await send('reissue', name, args, true);
  if (again.status === 'no-answer') return;
  // A re-issue answered with an error is still observed: did the effect happen once (reissue-refused)?
  if (!(await observe('observe-after-reissue')) || again.status !== 'ok') return;
  if (conflictArgs) await send('conflict', name, conflictArgs, true);
}

/** One `tools/call`, always a value: an answer, an error, or silence. */
async function callTool(
  session: Session,
  step: string,
  name: string,
  args: Record<string, unknown>,
  idempotencyKey: string | undefined,
  bound: Bound,
): Promise<SentCall> {
  const params: Record<string, unknown> = { name, arguments: args };
  if (idempotencyKey) params.idempotencyKey = idempotencyKey;
  const started = performance.now();
  // Once: a server that carried the call out and then refused it (a 401 with an expired token)
  // must not get it again from the transport's re-send after a refresh.
  const called = await session.call('tools/call', params, { timeoutMs: bound.ms, once: true });
  const answered = 'outcome' in called ? answerOf(called.outcome) : unanswered(called.failure, bound.from);
  return { step, tool: name, id: called.id, ms: Math.round(performance.now() - started), ...answered };
}

type Answered = Omit<SentCall, 'step' | 'tool' | 'id' | 'ms'>;

/** A JSON-RPC answer: an error, a result with `isError`, or a result. */
function answerOf(outcome: RpcOutcome): Answered {
  if (!outcome.ok) {
    const type = (outcome.error.data as { type?: unknown } | undefined)?.type;
    const why = `answered error ${outcome.error.code} ${bounded(outcome.error.message, 200)}${typeof type === 'string' ? ` (${bounded(type, 60)})` : ''}`;
    return { status: 'error', answer: why, why };
  }
  const r = outcome.result;
  const compared = JSON.stringify({ content: r.content, structuredContent: r.structuredContent }) ?? '';
  const answer = bounded(textOf(r.content) ?? compared, ANSWER_CHARS);
  if (r.isError === true)
    return { status: 'tool-error', answer, compared, why: `answered isError: true (${bounded(answer, 200)})` };
  return { status: 'ok', answer, compared };
}

/**
 * No answer. A timeout, or a refusal (HTTP 401/403: the token was refreshed meanwhile, or a sign-in
 * is needed), leaves the connection usable; an exit or a closed stream ends every later experiment.
 */
function unanswered(failure: ScanFailure, boundFrom: string): Answered {
  if (failure.kind === 'timeout') return noAnswer(`no answer: ${failure.message} (${boundFrom})`);
  if (failure.kind === 'auth') return noAnswer(`no answer: refused (${failure.message})`);
  return { ...noAnswer(`no answer: the connection ended (${failure.message})`), ended: failure.message };
}

const noAnswer = (why: string): Answered => ({ status: 'no-answer', answer: why, why });

/** The text parts of a result's content, joined: what a person reads of it. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((c) =>
    c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'
      ? [(c as { text: string }).text]
      : [],
  );
  return texts.length ? texts.join('\n') : undefined;
}
