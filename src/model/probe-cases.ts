/**
 * A tool's experiments in a report, one entry per case (no zod: the terminal and SARIF writers
 * load it). A tool planned once has `tools[].probe`; one planned as a list of cases has
 * `tools[].probes`, each entry with its `case` (docs/PROBE.md).
 */
import type { ToolProbe } from './probe-schema.js';

/** A tool's probe fields in a report: `probe` for a tool planned once, `probes` (one per case) for a list of cases. */
export interface ToolProbes {
  probe?: ToolProbe;
  probes?: ToolProbe[];
}

/** Every experiment of a tool, one entry per case: what counting, gating and every reporter read. */
export function probesOf(tool: ToolProbes): ToolProbe[] {
  return tool.probes ?? (tool.probe ? [tool.probe] : []);
}

/** `write_query case 2`, or the bare name for a tool planned once: how every output names an experiment. */
export const experimentName = (tool: string, probe: Pick<ToolProbe, 'case'>): string =>
  probe.case === undefined ? tool : `${tool} case ${probe.case}`;
