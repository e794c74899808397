// The lost-response experiment (docs/PROBE.md): the only code that sends `tools/call`, only to planned tools.
import { bounded } from '../model/bounds.js';
import type { ProbeExperiment, RanExperiment, SentCall } from '../model/probe-schema.js';
import type { ScanFailure } from '../connect/failure.js';
import type { RpcOutcome } from '../connect/rpc.js';
import type { Session } from '../connect/session.js';

const ANSWER_CHARS = 500;

/** Never throws; a connection that ended leaves the later experiments not run. */
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

/** `from` is named in a `no answer` reason. */
export interface Bound {
  ms: number;
  from: string;
}

/** The plan's bound is the tool's own: its observer is another tool and keeps --timeout. */
function boundOf(e: ProbeExperiment, toolName: string, timeoutMs: number): Bound {
  if (toolName === e.name && e.timeoutMs) return { ms: e.timeoutMs, from: "the plan's timeoutMs" };
  return { ms: timeoutMs, from: '--timeout' };
}

/** An observer's error answer is an observation too; silence is not. */
const answered = (c: SentCall) => c.status !== 'no-answer';

/** A refused re-issue is still observed: whether its effect stayed once is the question. */
async function experiment(e: ProbeExperiment, send: Send): Promise<void> {
  const { name, arguments: args, conflictArguments: conflictArgs } = e;
  const observe = async (step: string) =>
    e.observe ? answered(await send(step, e.observe.tool, e.observe.arguments, false)) : true;
  if (!(await observe('observe-before'))) return;
  if ((await send('call', name, args, true)).status !== 'ok') return;
  // The answer above is "lost": the client saw nothing, and re-issues the same request.
  if (!(await observe('observe-after-call'))) return;
  const reissue = await send('reissue', name, args, true);
  if (!answered(reissue)) return;
  if (!(await observe('observe-after-reissue')) || reissue.status !== 'ok') return;
  if (conflictArgs) await send('conflict', name, conflictArgs, true);
}

/** A failed set-up call stops the rest, and no experiment runs: its state is not the one planned. */
export async function runSetup(
  session: Session,
  setup: readonly { tool: string; arguments: Record<string, unknown> }[],
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ calls: SentCall[]; failed?: string; durationMs: number }> {
  const started = performance.now();
  const calls: SentCall[] = [];
  const bound = { ms: opts.timeoutMs, from: '--timeout' };
  let failed: string | undefined;
  for (const [i, s] of setup.entries()) {
    if (opts.signal?.aborted) {
      failed = 'interrupted';
      break;
    }
    const call = await callTool(session, `setup-${i + 1}`, s.tool, s.arguments, undefined, bound);
    calls.push(call);
    if (call.status !== 'ok') {
      failed = `setup[${i}] (${s.tool}) ${call.why ?? call.status}`;
      break;
    }
  }
  return { calls, ...(failed ? { failed } : {}), durationMs: Math.round(performance.now() - started) };
}

export async function callTool(
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
  // A server that carried the call out then answered 401 must not get it again after a token refresh.
  const called = await session.call('tools/call', params, { timeoutMs: bound.ms, once: true });
  const answered = 'outcome' in called ? answerOf(called.outcome) : unanswered(called.failure, bound.from);
  return { step, tool: name, id: called.id, ms: Math.round(performance.now() - started), ...answered };
}

type Answered = Omit<SentCall, 'step' | 'tool' | 'id' | 'ms'>;

function answerOf(outcome: RpcOutcome): Answered {
  if (!outcome.ok) {
    const type = (outcome.error.data as { type?: unknown } | undefined)?.type;
    const why = `answered error ${outcome.error.code} ${bounded(outcome.error.message, 200)}${typeof type === 'string' ? ` (${bounded(type, 60)})` : ''}`;
    // Compared by the whole code and message, not the cut words.
    const compared = JSON.stringify({ error: { code: outcome.error.code, message: outcome.error.message } });
    return { status: 'error', answer: why, compared, why };
  }
  const r = outcome.result;
  const compared = JSON.stringify({ content: r.content, structuredContent: r.structuredContent }) ?? '';
  const answer = bounded(textOf(r.content) ?? compared, ANSWER_CHARS);
  if (r.isError === true)
    return { status: 'tool-error', answer, compared, why: `answered isError: true (${bounded(answer, 200)})` };
  return { status: 'ok', answer, compared };
}

/** A timeout or a 401/403 leaves the connection usable; an exit or closed stream ends later experiments. */
function unanswered(failure: ScanFailure, boundFrom: string): Answered {
  if (failure.kind === 'timeout') return noAnswer(`no answer: ${failure.message} (${boundFrom})`);
  if (failure.kind === 'auth') return noAnswer(`no answer: refused (${failure.message})`);
  return { ...noAnswer(`no answer: the connection ended (${failure.message})`), ended: failure.message };
}

const noAnswer = (why: string): Answered => ({ status: 'no-answer', answer: why, why });

function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((c) =>
    c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'
      ? [(c as { text: string }).text]
      : [],
  );
  return texts.length ? texts.join('\n') : undefined;
}
