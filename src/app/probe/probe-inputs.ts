/** `probe`'s flags, checked before anything connects (docs/PROBE.md). */
import { InputError } from '../../model/input-error.js';
import { plannedCalls, type ProbePlan } from '../../model/probe-plan.js';
import { splitList } from '../../model/words.js';
import { msg, show } from '../../render/message.js';
import type { Target } from '../../targets/types.js';
import { auditTarget, type ServerSettings } from '../audit-target.js';
import { readProbePlan, type ProbeGate, type ProbeRunSettings } from './probe-run.js';
import { checkReportFiles } from '../write-reports.js';
import { checkWritable, refuseUnbound } from '../writable.js';

/** Outcomes, and `overstates`: a tool whose hints claim more than it was seen to do. */
const GATES = [
  'repeated-effect',
  'reissue-refused',
  'inconclusive',
  'failed',
  'overstates',
] as const satisfies readonly ProbeGate[];

function parseGates(list: string | undefined): Set<ProbeGate> {
  if (list === undefined) return new Set();
  const words = splitList(list);
  for (const w of words)
    if (!(GATES as readonly string[]).includes(w))
      throw new InputError(msg`--fail-on: unknown "${show.name(w)}" (probe takes ${GATES.join(', ')})`);
  if (words.length === 0) throw new InputError(`--fail-on: expected a comma-separated list of ${GATES.join(', ')}`);
  return new Set(words as ProbeGate[]);
}

/** What a probe needs besides its server: the plan, the outputs, the bounds and the sandbox. */
export interface ProbeSettings extends ServerSettings {
  plan?: string;
  auto?: boolean;
  profile?: string[];
  failOn?: string;
  out?: string;
  format: string[];
  json?: string;
  timeout?: number;
  probeTimeout?: number;
  sandbox?: boolean;
  writable?: string[];
  trust?: string[];
  cacheDir?: string;
}

export interface ProbeInputs {
  target: Target;
  plan: ProbePlan;
  /** Said before anything connects, so the server is as the user gave it: its name is not known yet. */
  calls: { tools: string[]; observers: string[]; setup: string[]; conflicts: boolean; server: string; auto: boolean };
  settings: Omit<ProbeRunSettings, 'interrupt'>;
}

export async function probeInputs(words: string[], flags: ProbeSettings): Promise<ProbeInputs> {
  if (flags.plan === undefined && !flags.auto)
    throw new InputError(
      'probe calls tools, so it needs --plan PLAN.json naming them, or --auto --sandbox to exercise every tool (docs/PROBE.md); nothing was called',
    );
  const gates = parseGates(flags.failOn);
  const target = auditTarget(words, flags);
  const writable = checkWritable(flags);
  refuseUnbound(target, writable, flags);
  const plan = flags.plan === undefined ? { tools: {} } : await readProbePlan(flags.plan);
  const files = { out: flags.out, formats: flags.format, json: flags.json };
  await checkReportFiles(files);
  const options = {
    timeoutMs: flags.timeout,
    probeTimeoutMs: flags.probeTimeout,
    sandbox: flags.sandbox,
    writable,
    trust: flags.trust,
    cacheDir: flags.cacheDir,
    planFile: flags.plan,
    auto: flags.auto,
    profiles: flags.profile?.length
      ? await (await import('../../classify/profiles/index.js')).loadProfiles(flags.profile)
      : undefined,
  };
  const settings = { options, files, nameFromServerInfo: flags.name === undefined, gates };
  const calls = {
    ...plannedCalls(plan),
    conflicts: hasConflicts(plan),
    server: serverText(target, flags),
    auto: !!flags.auto,
  };
  return { target, plan, calls, settings };
}

/** A tool's entry may be one case or a list of them. */
const hasConflicts = (plan: ProbePlan) =>
  Object.values(plan.tools)
    .flat()
    .some((c) => c.conflictArguments !== undefined);

/** --name, else the URL or the command line: `node server.mjs`, not the `node` a name would say. */
function serverText(target: Target, flags: ProbeSettings): string {
  if (flags.name !== undefined) return target.name;
  if (target.kind === 'remote') return target.url;
  if (target.kind === 'command') return [target.command, ...(target.args ?? [])].join(' ');
  return target.name;
}
