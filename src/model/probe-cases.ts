// No zod here: the terminal and SARIF writers load it.
import type { ToolProbe } from './probe-schema.js';

/** `probes` for a tool planned as a list of cases. */
export interface ToolProbes {
  probe?: ToolProbe;
  probes?: ToolProbe[];
}

/** The observer of an `--auto` experiment: the sandbox's files and the reads that held still. */
export const AUTO_OBSERVER = 'the sandbox files';

export function probesOf(tool: ToolProbes): ToolProbe[] {
  return tool.probes ?? (tool.probe ? [tool.probe] : []);
}

/** `write_query case 2`, in every output. */
export const experimentName = (tool: string, probe: Pick<ToolProbe, 'case'>): string =>
  probe.case === undefined ? tool : `${tool} case ${probe.case}`;
