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
import { planAuto, readCandidates, type AutoPlan } from '../../probe/auto/plan.js';
import { execa } from 'execa';
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

/** What the experiments share: the server as it listed its tools, and how to reach it. */
interface AutoServer {
  target: Target;
  /** The first listing's entries: every experiment is planned from them before its server starts. */
  listed: readonly Record<string, unknown>[];
  reads: readonly Record<string, unknown>[];
  connect: ConnectOptions;
  one: OneOptions;
}

/** One experiment per tool, one tool at a time; never throws. */
export async function autoProbe(
  target: Target,
  listed: readonly Record<string, unknown>[],
  tools: readonly string[],
  conn: { connect: ConnectOptions; one: OneOptions },
  opts: AutoOptions,
): Promise<Map<string, ToolProbe>> {
  const server: AutoServer = { target, listed, reads: readCandidates(listed), ...conn };
  const out = new Map<string, ToolProbe>();
  opts.onStart?.(tools);
  const ends = performance.now() + opts.budgetMs;
  for (const name of tools) {
    if (opts.signal?.aborted) out.set(name, notProbed('interrupted'));
    else if (performance.now() > ends) out.set(name, notProbed("the server's budget for --auto ran out"));
    else out.set(name, await oneTool(server, name, { ...opts, ends }).catch((err: unknown) => failed(crash(err))));
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

type ToolOptions = AutoOptions & { ends: number };

/** Planned and its files made before its server starts: nothing the server did can steer those writes. */
async function oneTool(server: AutoServer, name: string, opts: ToolOptions): Promise<ToolProbe> {
  const scratch = await scratchSpace();
  try {
    const plan = planAuto(server.listed, name, scratch.work, `idemscan-auto-${randomUUID()}`, server.reads);
    if (!plan.ok) return notProbed(plan.reason);
    await createInputs(scratch.work, plan.inputs);
    const probe = await inScratch(server, plan, scratch, opts);
    return withoutScratch(opts.signal?.aborted ? notProbed('interrupted') : probe, scratch.root);
  } finally {
    await removeScratch(scratch.root);
  }
}

/** A server may have made a folder unreadable: writable again first, and a failure left behind, never thrown. */
async function removeScratch(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true }).catch(async () => {
    await execa('chmod', ['-R', 'u+rwx', root], { reject: false });
    await rm(root, { recursive: true, force: true }).catch(() => {});
  });
}

/** The server sees the scratch space as its HOME and TMPDIR; nothing else it can write is kept. */
export function scratchTarget(target: Target, scratch: Scratch): Target {
  if (target.kind !== 'command' && target.kind !== 'package') return target;
  const cwd = target.cwd ?? scratch.work; // a server that writes beside itself writes where it is seen
  const home = (sub: string) => path.join(scratch.home, sub);
  const xdg = {
    XDG_CONFIG_HOME: home('.config'),
    XDG_CACHE_HOME: home('.cache'),
    XDG_DATA_HOME: home('.local/share'),
    XDG_STATE_HOME: home('.local/state'),
  };
  return { ...target, cwd, env: { ...target.env, HOME: scratch.home, TMPDIR: scratch.tmp, ...xdg } };
}

async function inScratch(
  server: AutoServer,
  plan: Extract<AutoPlan, { ok: true }>,
  scratch: Scratch,
  opts: ToolOptions,
): Promise<ToolProbe> {
  const writable = [...(server.one.writable ?? []), scratch.root];
  const target = (opts.targetIn ?? scratchTarget)(server.target, scratch);
  const prepared = await prepareServer(target, server.connect, { ...server.one, writable });
  if ('failed' in prepared) return failed(`the fresh server did not start: ${prepared.failed.failure?.message}`);
  try {
    const opened = await open(prepared.launch, liveConnect(prepared));
    if (!opened.ok) return failed(`the fresh server did not start: ${opened.observation.failure?.message}`);
    const { session } = opened;
    try {
      const run = { session, roots: rootsOf(scratch, server.one.writable), bound: boundOf(opts), ends: opts.ends };
      return await experiment(run, plan);
    } finally {
      await session.close();
    }
  } finally {
    await prepared.launch.cleanup?.();
  }
}

/** Each call's bound, read as it is sent: --timeout, or what is left of the server's budget. */
const boundOf = (opts: ToolOptions) => ({
  get ms() {
    return Math.max(1, Math.min(opts.timeoutMs, Math.round(opts.ends - performance.now())));
  },
  get from() {
    return opts.ends - performance.now() < opts.timeoutMs ? "the server's --auto budget" : '--timeout';
  },
});

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

/** The scratch space's random path, as `$SCRATCH`: a report says where a tool wrote, not which temporary folder it was. */
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
      await writeFile(target, input.content, { flag: 'wx' }).catch(() => {}); // made once, never through a link
    }
  }
}
