/**
 * Runs a composite action's steps as a GitHub runner does, for the Action's tests: `${{ }}`
 * expressions of the contexts a composite action sees (inputs, github, runner, steps), `if:`
 * conditions (`always()`, `&&`, `||`, `==`, `!=`, literals), each `shell: bash` step as
 * `bash --noprofile --norc -eo pipefail` with its own GITHUB_OUTPUT file and the shared
 * GITHUB_STEP_SUMMARY, RUNNER_TEMP and GITHUB_WORKSPACE, and the outputs the steps write.
 * `uses:` steps are not run (they are other repositories' code): they are recorded with their
 * evaluated `with:`, succeed, and give the outputs the test hands in.
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface ActionFile {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

interface StepRun {
  name: string;
  kind: 'run' | 'uses';
  outcome: 'success' | 'failure' | 'skipped';
  exitCode?: number;
  uses?: string;
  with?: Record<string, string>;
  ms: number;
}

export interface ActionRun {
  steps: StepRun[];
  outputs: Record<string, string>;
  summary: string;
  /** Everything the run steps printed, stdout and stderr, in order per step. */
  log: string;
  failed: boolean;
  ms: number;
}

export function readAction(actionPath: string): ActionFile {
  return parse(readFileSync(path.join(actionPath, 'action.yml'), 'utf8')) as ActionFile;
}

/** `name=value` lines and `name<<DELIM` ... `DELIM` blocks, as the runner reads them. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = line.indexOf('<<');
    const eq = line.indexOf('=');
    if (heredoc > 0 && (eq < 0 || heredoc < eq)) {
      const delim = line.slice(heredoc + 2);
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) body.push(lines[i]!);
      out[line.slice(0, heredoc)] = body.join('\n');
    } else if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export async function runAction(
  actionPath: string,
  opts: { inputs: Record<string, string>; workspace: string; usesOutputs?: Record<string, Record<string, string>> },
): Promise<ActionRun> {
  const started = performance.now();
  const action = readAction(actionPath);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'idemscan-runner-'));
  const summaryFile = path.join(temp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const inputs: Record<string, string> = {};
  for (const [k, v] of Object.entries(action.inputs)) inputs[k] = opts.inputs[k] ?? v.default ?? '';
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const value = (ref: string): string => {
    const [ctx, ...rest] = ref.split('.');
    if (ctx === 'inputs') return inputs[rest.join('.')] ?? '';
    if (ref === 'github.action_path') return actionPath;
    if (ref === 'github.workspace') return opts.workspace;
    if (ref === 'runner.temp') return temp;
    if (ref === 'runner.os') return 'Linux';
    if (ctx === 'steps' && rest[1] === 'outputs') return steps[rest[0]!]?.outputs[rest.slice(2).join('.')] ?? '';
    throw new Error(`the runner stand-in does not know ${ref}`);
  };
  const term = (t: string): string => {
    const s = t.trim();
    if (s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replaceAll("''", "'");
    if (s === 'always()') return 'true';
    return value(s);
  };
  const condition = (expr: string): boolean =>
    expr.split('||').some((any) =>
      any.split('&&').every((all) => {
        const ne = all.indexOf('!=');
        const eq = all.indexOf('==');
        if (ne >= 0) return term(all.slice(0, ne)) !== term(all.slice(ne + 2));
        if (eq >= 0) return term(all.slice(0, eq)) === term(all.slice(eq + 2));
        return term(all) !== '';
      }),
    );
  const expand = (text: string): string => text.replace(/\$\{\{([^}]*)\}\}/g, (_, e: string) => term(e));

  const runs: StepRun[] = [];
  let failed = false;
  let log = '';
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${index}`;
    const t0 = performance.now();
    const cond = step.if?.replace(/^\$\{\{|\}\}$/g, '');
    const always = cond?.includes('always()') ?? false;
    if ((failed && !always) || (cond !== undefined && !condition(cond))) {
      runs.push({ name, kind: step.uses ? 'uses' : 'run', outcome: 'skipped', ms: 0 });
      continue;
    }
    if (step.uses) {
      const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v))]));
      if (step.id) steps[step.id] = { outputs: opts.usesOutputs?.[step.id] ?? {} };
      runs.push({ name, kind: 'uses', outcome: 'success', uses: step.uses, with: withs, ms: performance.now() - t0 });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${name}: only shell: bash steps are run here`);
    const script = path.join(temp, `step-${index}.sh`);
    const outputFile = path.join(temp, `output-${index}`);
    writeFileSync(script, expand(step.run!));
    writeFileSync(outputFile, '');
    const env = {
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))])),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: opts.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: temp,
    };
    const r = await execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: opts.workspace,
      env,
      reject: false,
      all: true,
      timeout: 120_000,
    });
    log += r.all ?? '';
    if (!log.endsWith('\n')) log += '\n';
    if (step.id) steps[step.id] = { outputs: parseOutputs(readFileSync(outputFile, 'utf8')) };
    const ok = r.exitCode === 0;
    if (!ok) failed = true;
    runs.push({
      name,
      kind: 'run',
      outcome: ok ? 'success' : 'failure',
      exitCode: r.exitCode,
      ms: performance.now() - t0,
    });
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expand(v.value)]));
  return {
    steps: runs,
    outputs,
    summary: readFileSync(summaryFile, 'utf8'),
    log,
    failed,
    ms: performance.now() - started,
  };
}
