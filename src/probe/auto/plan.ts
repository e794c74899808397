/** Pure but for the fresh key: what an `--auto` experiment of one tool will call, and with what. */
import { classifyTool } from '../../classify/index.js';
import { isReadNamed } from '../../classify/rules/words.js';
import { AUTO_OBSERVER } from '../../model/probe-cases.js';
import type { ProbeExperiment } from '../../model/probe-schema.js';
import { makeArguments, type MadeArguments } from './arguments.js';
import type { Read } from './experiment.js';

/** Candidate reads per experiment: each costs two control calls and one call per look. */
const MAX_READS = 3;

export type AutoPlan =
  | { ok: true; experiment: ProbeExperiment; made: MadeArguments; candidates: Read[]; inputs: MadeArguments['inputs'] }
  | { ok: false; reason: string };

export function planAuto(
  tools: readonly Record<string, unknown>[],
  name: string,
  work: string,
  fresh: string,
): AutoPlan {
  const raw = tools.find((t) => t.name === name);
  if (!raw) return { ok: false, reason: 'the fresh server did not list it' };
  const classified = classifyTool(raw, false);
  const keyPaths = classified.keyArguments.filter((k) => k.confidence === 'strong').map((k) => k.path);
  const made = makeArguments(raw.inputSchema, { scratch: work, keyPaths, fresh });
  if (!made.ok) return { ok: false, reason: `its arguments cannot be made from its schema: ${made.reason}` };
  const found = readsFor(tools, name, work, fresh);
  const candidates = found.map((r) => r.read);
  const inputs = [...made.inputs, ...found.flatMap((r) => r.inputs)];
  const observer = [AUTO_OBSERVER, ...candidates.map((r) => r.tool)].join(', ');
  const experiment: ProbeExperiment = {
    name,
    arguments: made.args,
    observe: { tool: observer, arguments: {} },
    key: fresh,
    protocolKey: false,
    keyLocations: made.keys,
  };
  return { ok: true, experiment, made, candidates, inputs };
}

type Found = { read: Read; inputs: MadeArguments['inputs']; declared: boolean };

/** Harmless reads: declared read-only or named as reads, with arguments that can be made (a file to read is). */
function readsFor(tools: readonly Record<string, unknown>[], self: string, work: string, fresh: string): Found[] {
  const reads: Found[] = [];
  for (const raw of tools) {
    const name = typeof raw.name === 'string' ? raw.name : undefined;
    if (name === undefined || name === self) continue;
    const declared = classifyTool(raw, false).verdict === 'read-only';
    if (!declared && !isReadNamed(name)) continue;
    const made = makeArguments(raw.inputSchema, { scratch: work, fresh });
    if (made.ok && made.keys.length === 0)
      reads.push({ read: { tool: name, arguments: made.args }, inputs: made.inputs, declared });
  }
  // Declared reads first, then by name: the same tools list gives the same observers.
  reads.sort((a, b) => Number(b.declared) - Number(a.declared) || (a.read.tool < b.read.tool ? -1 : 1));
  return reads.slice(0, MAX_READS);
}
