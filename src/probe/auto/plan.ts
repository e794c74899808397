/** Pure but for the fresh key: what an `--auto` experiment of one tool will call, and with what. */
import { classifyTool } from '../../classify/index.js';
import { isReadNamed } from '../../classify/rules/words.js';
import { AUTO_OBSERVER } from '../../model/probe-cases.js';
import type { ProbeExperiment } from '../../model/probe-schema.js';
import { makeArguments, type MadeArguments } from './arguments.js';
import type { Read } from './experiment.js';

/** Candidate reads per experiment: each costs two control calls and one call per look. */
const MAX_READS = 3;
/** The reads' own files, apart from the tool's: a read's input never sits where the tool writes. */
const READS_FOLDER = 'reads';

export type AutoPlan =
  | { ok: true; experiment: ProbeExperiment; candidates: Read[]; inputs: MadeArguments['inputs'] }
  | { ok: false; reason: string };

/** The server's harmless reads, once per server: declared read-only or named as reads, declared ones first. */
export function readCandidates(tools: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const found = tools.flatMap((raw) => {
    if (typeof raw.name !== 'string') return [];
    const declared = classifyTool(raw, false).verdict === 'read-only';
    return declared || isReadNamed(raw.name) ? [{ raw, name: raw.name, declared }] : [];
  });
  found.sort((a, b) => Number(b.declared) - Number(a.declared) || (a.name < b.name ? -1 : 1));
  return found.map((f) => f.raw);
}

export function planAuto(
  tools: readonly Record<string, unknown>[],
  name: string,
  work: string,
  fresh: string,
  reads: readonly Record<string, unknown>[] = readCandidates(tools),
): AutoPlan {
  const raw = tools.find((t) => t.name === name);
  if (!raw) return { ok: false, reason: 'the server did not list it' };
  const keyPaths = classifyTool(raw, false)
    .keyArguments.filter((k) => k.confidence === 'strong')
    .map((k) => k.path);
  const made = makeArguments(raw.inputSchema, { scratch: work, keyPaths, fresh });
  if (!made.ok) return { ok: false, reason: `its arguments cannot be made from its schema: ${made.reason}` };
  const found = readsFor(reads, name, work, fresh);
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
  return { ok: true, experiment, candidates, inputs };
}

type Found = { read: Read; inputs: MadeArguments['inputs'] };

/** The first reads other than the tool itself whose arguments can be made, without a key. */
function readsFor(reads: readonly Record<string, unknown>[], self: string, work: string, fresh: string): Found[] {
  const found: Found[] = [];
  for (const raw of reads) {
    if (found.length === MAX_READS) break;
    if (raw.name === self) continue;
    const made = makeArguments(raw.inputSchema, { scratch: `${work}/${READS_FOLDER}`, fresh });
    if (!made.ok || made.keys.length > 0) continue;
    const inputs = made.inputs.map((i) => ({ ...i, path: `${READS_FOLDER}/${i.path}` }));
    found.push({ read: { tool: String(raw.name), arguments: made.args }, inputs });
  }
  return found;
}
