/**
 * `probe --auto`: each tool its own experiment, on a fresh server with a fresh scratch space (its
 * HOME, TMPDIR and working folder, bound read-write into the sandbox), so no outcome depends on the
 * order of the listing or on another tool's effects.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectOptions } from '../../connect/observe.js';
import { open } from '../../connect/session.js';
import { bounded } from '../../model/bounds.js';
import { AUTO_OBSERVER } from '../../model/probe-cases.js';
import { LIMITS } from '../../model/limits.js';
import type { ToolProbe } from '../../model/probe-schema.js';
import { exercise, type AutoSession } from '../../probe/auto/experiment.js';
import { planAuto, type AutoPlan } from '../../probe/auto/plan.js';
import { toolProbe } from '../../probe/outcome.js';
import type { Target } from '../../targets/types.js';
import { liveConnect, prepareServer, type OneOptions } from '../scan/scan-server.js';

export interface AutoOptions {
  timeoutMs: number;
  /** The server as one tool's experiment starts it: by default the target with its HOME and TMPDIR in the scratch space. */
  targetIn?: (target: Target, scratch: Scratch) => Target;
  /** All the server's experiments together; a tool not reached by then is not probed. */
  budgetMs: number;
  signal?: AbortSignal;
  /** Told the tools before the first experiment starts. */
  onStart?: (tools: readonly string[]) => void;
}

const notProbed = (reason: string): ToolProbe => ({
  method: 'auto',
  outcome: 'not-probed',
  key: null,
  evidence: { reason, calls: [], requests: 0, durationMs: 0 },
});

const failed = (reason: string): ToolProbe => ({ ...notProbed(reason), outcome: 'failed' });

/** One experiment per tool, one tool at a time; never throws. */
export async function autoProbe(
  target: Target,
  tools: readonly string[],
  connect: ConnectOptions,
  one: OneOptions,
  opts: AutoOptions,
): Promise<Map<string, ToolProbe>> {
  const out = new Map<string, ToolProbe>();
  opts.onStart?.(tools);
  const ends = performance.now() + opts.budgetMs;
  for (const name of tools) {
    if (opts.signal?.aborted) out.set(name, notProbed('interrupted'));
    else if (performance.now() > ends) out.set(name, notProbed("the server's budget for --auto ran out"));
    else out.set(name, await oneTool(target, name, connect, one, opts).catch((err: unknown) => failed(crash(err))));
  }
  return out;
}

const crash = (err: unknown) =>
  `idemscan could not run this experiment: ${bounded(String((err as Error)?.message ?? err), LIMITS.errorChars)}`;

export interface Scratch {
  root: string;
  home: string;
  tmp: string;
  work: string;
}

async function scratchSpace(): Promise<Scratch> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'idemscan-auto-')));
  const [home, tmp, work] = ['home', 'tmp', 'work'].map((d) => path.join(root, d)) as [string, string, string];
  await Promise.all([home, tmp, work].map((d) => mkdir(d)));
  return { root, home, tmp, work };
}

async function oneTool(
  target: Target,
  name: string,
  connect: ConnectOptions,
  one: OneOptions,
  opts: AutoOptions,
): Promise<ToolProbe> {
  const scratch = await scratchSpace();
  try {
    return await inScratch(target, name, scratch, connect, one, opts);
  } finally {
    await rm(scratch.root, { recursive: true, force: true });
  }
}

/** The server sees the scratch space as its HOME and TMPDIR; nothing else it can write is kept. */
export function scratchTarget(target: Target, scratch: Scratch): Target {
  if (target.kind !== 'command' && target.kind !== 'package') return target;
  const cwd = target.cwd ?? scratch.work; // a server that writes beside itself writes where it is seen
  return { ...target, cwd, env: { ...target.env, HOME: scratch.home, TMPDIR: scratch.tmp } };
}

async function inScratch(
  target: Target,
  name: string,
  scratch: Scratch,
  connect: ConnectOptions,
  one: OneOptions,
  opts: AutoOptions,
): Promise<ToolProbe> {
  const writable = [...(one.writable ?? []), scratch.root];
  const inScratchTarget = (opts.targetIn ?? scratchTarget)(target, scratch);
  const prepared = await prepareServer(inScratchTarget, connect, { ...one, writable });
  if ('failed' in prepared) return failed(`the fresh server did not start: ${prepared.failed.failure?.message}`);
  try {
    const opened = await open(prepared.launch, liveConnect(prepared));
    if (!opened.ok) return failed(`the fresh server did not start: ${opened.observation.failure?.message}`);
    const { session } = opened;
    try {
      const listed = await session.listTools();
      if (!listed.ok) return failed('the fresh server did not list its tools');
      const plan = planAuto(listed.tools, name, scratch.work, `idemscan-auto-${randomUUID()}`);
      if (!plan.ok) return notProbed(plan.reason);
      await createInputs(scratch.work, plan.inputs);
      const run = { session, roots: rootsOf(scratch, one.writable), bound: boundOf(opts) };
      return withoutScratch(await experiment(run, plan), scratch.root);
    } finally {
      await session.close();
    }
  } finally {
    await prepared.launch.cleanup?.();
  }
}

const boundOf = (opts: AutoOptions) => ({ ms: opts.timeoutMs, from: '--timeout' });

/** What the sandbox lets the server write: its scratch space and what the user bound. */
function rootsOf(scratch: Scratch, writable: readonly string[] = []) {
  const own = (['home', 'tmp', 'work'] as const).map((label) => ({ label, dir: scratch[label] }));
  return [...own, ...writable.map((dir, i) => ({ label: `writable-${i + 1}`, dir }))];
}

async function experiment(run: AutoSession, plan: Extract<AutoPlan, { ok: true }>): Promise<ToolProbe> {
  const { ran, changes, reads } = await exercise(run, plan.candidates, plan.experiment.name, plan.experiment.arguments);
  const observer = [AUTO_OBSERVER, ...reads.map((r) => r.tool)].join(', ');
  const judged = toolProbe({ ...plan.experiment, observe: { tool: observer, arguments: {} } }, ran);
  const still = judged.outcome === 'inconclusive' && changes.call.length === 0 && changes.reissue.length === 0;
  const reason = still ? NOTHING_CHANGED : judged.evidence.reason;
  return {
    method: 'auto',
    ...judged,
    arguments: plan.experiment.arguments,
    evidence: { ...judged.evidence, reason, changes },
  };
}

const NOTHING_CHANGED =
  'neither the call nor the re-issue changed a file the sandbox lets it write or what its reads answer: no local effect to judge (an effect on a remote service is not seen)';

/** The scratch space's random path, as `$SCRATCH`: the same arguments read the same in every report. */
function withoutScratch<T>(value: T, root: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(root).slice(1, -1), '$SCRATCH')) as T;
}

/** Paths ending in `/` are folders; the rest files with the content the plan made. */
async function createInputs(work: string, inputs: readonly { path: string; content: string }[]): Promise<void> {
  for (const input of inputs) {
    const target = path.resolve(work, input.path);
    if (!target.startsWith(`${work}${path.sep}`)) continue;
    if (input.path.endsWith('/')) await mkdir(target, { recursive: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, input.content);
    }
  }
}
