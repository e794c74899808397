/**
 * What the key grading of issue 20 (name and description together) changes in a saved census:
 * every tool of the report is classified with the old code and the new, and the moves are printed
 * (weak -> strong arguments, verdicts, summary figures).
 *   node --import tsx bench/regrade.ts REPORT.json [DEFINITIONS.json] [--old DIST]
 * A report keeps no input schemas (only their hash), so the schemas come from DEFINITIONS
 * ({server: {tool: inputSchema}}); tools without one keep the grading stored in the report, and
 * the weak arguments left ungraded that way are listed. `--old DIST`: a dist/ built from the code
 * before the change (default: the grading stored in the report, which that code made).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { classifyTool } from '../src/classify/index.js';
import type { ServerReport, ToolReport } from '../src/model/schema.js';
import { summarize } from '../src/model/summary.js';

const args = process.argv.slice(2);
const oldAt = args.indexOf('--old');
const oldDist = oldAt >= 0 ? args.splice(oldAt, 2)[1] : undefined;
const [reportFile, definitionsFile] = args;
if (!reportFile) throw new Error('usage: bench/regrade.ts REPORT.json [DEFINITIONS.json] [--old DIST]');
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
  servers: ServerReport[];
  summary: Record<string, unknown>;
};
const definitions = (definitionsFile ? JSON.parse(readFileSync(definitionsFile, 'utf8')) : {}) as Record<
  string,
  Record<string, unknown>
>;
type Classify = typeof classifyTool;
const oldClassify: Classify | undefined = oldDist
  ? ((await import(pathToFileURL(path.resolve(oldDist, 'classify/index.js')).href)) as { classifyTool: Classify })
      .classifyTool
  : undefined;

const grade = (t: Pick<ToolReport, 'keyArguments'>) => new Map(t.keyArguments.map((k) => [k.path, k.confidence]));
const moved: string[] = [];
const ungraded: string[] = [];
let regraded = 0;
let oldMismatch = 0;
const servers = report.servers.map((s) => {
  const tools = s.tools.map((stored) => {
    const schema = definitions[s.name]?.[stored.name];
    if (schema === undefined) {
      for (const k of stored.keyArguments)
        if (k.confidence === 'weak') ungraded.push(`${s.name} ${stored.name} ${k.path} (weak, by ${k.reason ?? '?'})`);
      return stored;
    }
    regraded++;
    const raw = {
      name: stored.name,
      title: stored.title,
      description: stored.description,
      annotations: stored.annotations,
      inputSchema: schema,
    };
    const before = oldClassify ? oldClassify(raw, s.idempotencyCapability) : stored;
    if (
      oldClassify &&
      (before.verdict !== stored.verdict || JSON.stringify([...grade(before)]) !== JSON.stringify([...grade(stored)]))
    )
      oldMismatch++;
    const after = classifyTool(raw, s.idempotencyCapability);
    const was = grade(before);
    for (const [at, confidence] of grade(after)) {
      if (was.get(at) !== confidence)
        moved.push(`${s.name} ${stored.name} ${at}: ${was.get(at) ?? 'none'} -> ${confidence}`);
    }
    if (after.verdict !== before.verdict)
      moved.push(`${s.name} ${stored.name}: verdict ${before.verdict} -> ${after.verdict}`);
    return { ...stored, verdict: after.verdict, keyArguments: after.keyArguments };
  });
  return { ...s, tools };
});

const figures = ['tools', 'notReadOnly', 'keyed', 'idempotent', 'unprotected'] as const;
const after = summarize(servers);
const before = summarize(report.servers);
console.log(
  `tools re-graded from definitions: ${regraded} (old code disagreeing with the stored report: ${oldClassify ? oldMismatch : 'not checked'})`,
);
console.log(`moves (${moved.length}):\n${moved.map((m) => `  ${m}`).join('\n') || '  none'}`);
console.log('summary:');
for (const f of figures) console.log(`  ${f}: ${before[f]} -> ${after[f]}`);
const w = (x: typeof after) => x.weighted?.verdicts;
for (const v of ['keyed', 'unprotected'] as const) {
  console.log(
    `  weighted ${v}: ${w(before)?.[v].servers} servers, share ${w(before)?.[v].share} -> ${w(after)?.[v].servers} servers, share ${w(after)?.[v].share}`,
  );
}
console.log(
  `weak arguments not re-graded (no schema in the report or the definitions) (${ungraded.length}):\n${ungraded.map((u) => `  ${u}`).join('\n')}`,
);
