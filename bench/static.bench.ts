/**
 * The static audit's speed on the published census (issue 18): the newest run's report holds each
 * tool's name, title, description and annotations as received, but no input schemas. Each server
 * becomes one line of a JSON Lines file of saved tools/list results, every tool with an input
 * schema of its key arguments (the census's keyArguments paths, as string properties), repeated
 * COPIES times; the built CLI classifies it with `scan FILE`. Run: npm run build && npx tsx bench/static.bench.ts [COPIES]
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const census = 'output/ecosystem/2026-11-30/report.json';
const copies = Number(process.argv[2] ?? 10);
const report = JSON.parse(readFileSync(census, 'utf8')) as {
  servers: {
    name: string;
    serverInfo?: unknown;
    capabilities?: unknown;
    tools: {
      name: string;
      title?: string;
      description?: string;
      annotations?: unknown;
      keyArguments: { name: string }[];
    }[];
  }[];
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-static-bench-'));
// One file per copy: a target file is read to 16 MB at most (targets/load.ts).
const files: string[] = [];
let tools = 0;
let servers = 0;
let bytes = 0;
for (let c = 0; c < copies; c++) {
  const lines: string[] = [];
  for (const s of report.servers.filter((x) => x.tools.length > 0)) {
    const list = s.tools.map((t) => ({
      name: t.name,
      ...(t.title === undefined ? {} : { title: t.title }),
      ...(t.description === undefined ? {} : { description: t.description }),
      ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(t.keyArguments.map((k) => [k.name, { type: 'string' }])),
      },
    }));
    tools += list.length;
    lines.push(
      JSON.stringify({
        tools: list,
        serverInfo: { name: `${s.name} #${c + 1}`, version: '1' },
        capabilities: s.capabilities,
      }),
    );
  }
  const file = path.join(dir, `census-${c + 1}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  files.push(file);
  servers += lines.length;
  bytes += statSync(file).size;
}
const started = performance.now();
const r = await execa(
  process.execPath,
  ['dist/cli/main.js', 'scan', ...files, '--json', path.join(dir, 'report.json'), '-q', '--concurrency', '4'],
  { reject: false },
);
const seconds = (performance.now() - started) / 1000;
if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}: ${r.stderr.slice(0, 2000)}`);
const out = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as {
  summary: { tools: number; servers: number };
};
console.log(
  `${servers} servers, ${tools} tools, ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB: exit ${r.exitCode}, ${seconds.toFixed(2)} s (process start to report), ${Math.round(out.summary.tools / seconds)} tools/s; report counts ${out.summary.tools} tools`,
);
