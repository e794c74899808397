/** Pure classification: raw tool entries and server capabilities in, report data out. */
import { LIMITS } from '../model/limits.js';
import type { Finding, ToolReport } from '../model/schema.js';
import { bounded, boundedDescription, boundedObject } from '../model/bounds.js';
import { definitionOf, Unhashable } from '../model/definition-hash.js';
import { HINT_NAMES } from './hints.js';
import { evaluateProfile } from './profiles/evaluate.js';
import type { Profile } from './profiles/schema.js';
import { newStepBudget, SERVER_STEPS, TOOL_STEPS, type StepBudget } from './keys.js';
import { runServerRules, runToolRules } from './rules/index.js';
import type { ServerContext } from './rules/types.js';
import { toolVerdict } from './tool-verdict.js';
import { advertisesIdempotency } from './verdict.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { plural } from '../model/verdicts.js';

export interface ClassifyInput {
  name: string;
  capabilities?: Record<string, unknown>;
  trusted?: boolean;
  rawTools: Record<string, unknown>[];
  /** Profiles whose requirements each tool is checked against (`--profile`). */
  profiles?: Profile[];
}

export interface Classified {
  idempotencyCapability: boolean;
  tools: ToolReport[];
  findings: Finding[];
}

/** `budget`: the steps left for the server's schemas (classifyServer shares one among its tools). */
export function classifyTool(raw: Record<string, unknown>, serverKeyed: boolean, budget?: StepBudget): ToolReport {
  const { annotations, effective, keyArguments, verdict } = toolVerdict(raw, serverKeyed, budget);
  const definition = definitionOf(raw);
  const title =
    typeof raw.title === 'string' ? raw.title : typeof annotations?.title === 'string' ? annotations.title : undefined;
  return {
    name: bounded(String(raw.name), LIMITS.nameChars),
    title: title === undefined ? undefined : bounded(title, LIMITS.nameChars),
    description: typeof raw.description === 'string' ? boundedDescription(raw.description) : undefined,
    annotations: annotations && boundedObject(annotations, LIMITS.annotationsJson, ['title', ...HINT_NAMES]),
    effective,
    verdict,
    keyArguments: keyArguments.slice(0, 50),
    ...(definition instanceof Unhashable ? {} : { definitionHash: definition.hash, fieldHashes: definition.fields }),
    findings: definition instanceof Unhashable ? [unhashable(String(raw.name), definition)] : [],
  };
}

export function classifyServer(input: ClassifyInput): Classified {
  const idempotencyCapability = advertisesIdempotency(input.capabilities);
  const budget = newStepBudget();
  const tools = input.rawTools.map((raw) => classifyTool(raw, idempotencyCapability, budget));
  const server: ServerContext = {
    name: input.name,
    capabilities: input.capabilities,
    idempotencyCapability,
    trusted: input.trusted ?? false,
    tools,
    raws: input.rawTools,
  };
  tools.forEach((tool, i) => {
    const raw = input.rawTools[i]!;
    tool.findings.push(
      ...runToolRules({ tool, raw, server }),
      ...(input.profiles ?? []).flatMap((p) => evaluateProfile(p, raw, tool.name)),
    );
  });
  return { idempotencyCapability, tools, findings: [...budgetFindings(budget), ...runServerRules(server)] };
}

function unhashable(tool: string, why: Unhashable): Finding {
  return finding(
    RULE.definitionUnhashable,
    `no definitionHash: the definition is not JSON data that RFC 8785 can canonicalize (${why.message}); a lock cannot pin this tool`,
    { tool: bounded(tool, LIMITS.nameChars), evidence: 'definitionHash' },
  );
}

/** Schemas not searched to the end: their verdicts may miss a key argument. */
function budgetFindings(budget: StepBudget): Finding[] {
  if (budget.cut.length === 0) return [];
  const names = budget.cut
    .slice(0, 3)
    .map((n) => JSON.stringify(bounded(n, 64)))
    .join(', ');
  return [
    finding(
      RULE.schemaBudget,
      `${plural(budget.cut.length, 'tool input schema')} (${names}${budget.cut.length > 3 ? ', ...' : ''}) ${budget.cut.length === 1 ? 'was' : 'were'} not searched to the end for key arguments: idemscan reads ${TOOL_STEPS.toLocaleString('en-US')} schema nodes, $ref hops and properties per tool and ${SERVER_STEPS.toLocaleString('en-US')} per server; a key past that point is not reported`,
      { evidence: 'inputSchema' },
    ),
  ];
}
