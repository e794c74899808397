/**
 * `probe --auto` against the plan library: every tool of each library server probed without its
 * plan (the server started as its library file says, its `${scratch}` each experiment's working
 * folder), and each outcome set against the plan's rows of the published behaviour table. Where
 * both give an observed outcome (retry-safe, repeated-effect, reissue-refused) they agree when the
 * auto outcome is one of the plan's for that tool (a tool planned as cases may have several).
 *   node --import tsx bench/auto-vs-plan.ts [LIBRARY=probes] [TABLE=output/ecosystem/behaviour/behaviour.json]
 * ONLY=a,b probes only those library servers; DUMP=file.json writes the last probe report.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeTarget } from '../src/app/probe/probe.js';
import { scratchTarget } from '../src/app/probe/auto.js';
import { installTargets } from '../src/app/packages/install.js';
import { materialize, readLibrary } from '../src/census/behaviour/probe-library.js';
import type { BehaviourTable } from '../src/census/behaviour/behaviour.js';

const [libraryDir = 'probes', tableFile = 'output/ecosystem/behaviour/behaviour.json'] = process.argv.slice(2);
const OBSERVED = new Set(['retry-safe', 'repeated-effect', 'reissue-refused']);
const table = JSON.parse(readFileSync(tableFile, 'utf8')) as BehaviourTable;
const library = realpathSync(libraryDir);
const entries = await readLibrary(libraryDir, process.env.ONLY?.split(','));
const placeholder = (scratch: string) => ({ scratch, library });
await installTargets(
  entries.map((e) => materialize(e, placeholder('/tmp')).target),
  { concurrency: 2 },
  () => {},
);

let both = 0;
let agree = 0;
const disagreements: string[] = [];
const started = performance.now();
for (const entry of entries) {
  const t0 = performance.now();
  // The listing's own session gets a scratch folder too, as the plan census gives each server one.
  const listing = mkdtempSync(path.join(os.tmpdir(), 'idemscan-auto-vs-plan-'));
  for (const d of ['home', 'tmp']) mkdirSync(path.join(listing, d));
  const target = materialize(entry, placeholder(listing)).target;
  const { report } = await probeTarget(
    target,
    { tools: {} },
    {
      sandbox: true,
      writable: [listing],
      auto: true,
      timeoutMs: 20_000,
      autoTargetIn: (_t, scratch) => scratchTarget(materialize(entry, placeholder(scratch.work)).target, scratch),
    },
  );
  const tools = report.servers[0]?.tools ?? [];
  if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(report, null, 2));
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const auto = tool.probe?.outcome ?? 'not-probed';
    counts.set(auto, (counts.get(auto) ?? 0) + 1);
    const planned = table.rows.filter(
      (r) => r.server === entry.name && r.tool === tool.name && OBSERVED.has(r.outcome),
    );
    if (planned.length === 0 || !OBSERVED.has(auto)) continue;
    both++;
    if (planned.some((r) => r.outcome === auto)) agree++;
    else
      disagreements.push(
        `${entry.name} ${tool.name}: plan ${planned.map((r) => r.outcome).join('/')}, auto ${auto} (${tool.probe?.evidence.reason.slice(0, 160)}; call: ${tool.probe?.evidence.changes?.call.slice(0, 3).join('; ')})`,
      );
  }
  const line = [...counts].map(([o, n]) => `${n} ${o}`).join(', ');
  console.log(`${entry.name}: ${tools.length} tools, ${line} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\nboth observed: ${both}; agree: ${agree} (${both ? ((100 * agree) / both).toFixed(1) : '-'}%)`);
for (const d of disagreements) console.log(`  ${d}`);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
