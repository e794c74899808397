/**
 * Peak memory of the CLI against servers that try to exhaust it (test/fixtures/servers/hostile-memory.mjs):
 * per scenario, COPIES servers of one MODE scanned at concurrency 4, JSON and HTML reports written.
 * Prints the CLI's peak RSS (`/usr/bin/time -v`, else VmHWM is not available and RSS is not shown),
 * the wall time, the report sizes and what each server's report says. Goal: peak RSS under 1 GB.
 *   npm run build && node --import tsx bench/memory.bench.ts [MODES=schemas,nodes,cursors,texts] [COPIES=4]
 * IDEMSCAN_DIST=/path/to/dist measures another build (the code before a change, say).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../src/model/schema.js';
import { FIXTURES } from '../test/fixtures/index.js';

const [modesArg = 'schemas,nodes,cursors,texts', copiesArg = '4'] = process.argv.slice(2);
const copies = Number(copiesArg);
const dist = process.env.IDEMSCAN_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const cli = path.join(dist, 'cli', 'main.js');
const TIME = '/usr/bin/time';
const MiB = 1024 * 1024;

function run(mode: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), `idemscan-mem-${mode}-`));
  const servers = Array.from({ length: copies }, (_, i) => ({
    name: `${mode}-${i}`,
    command: process.execPath,
    args: [FIXTURES.hostileMemory],
    env: { MODE: mode },
  }));
  writeFileSync(path.join(dir, 'targets.json'), JSON.stringify({ servers }));
  const out = path.join(dir, 'output');
  const args = [
    cli,
    'scan',
    path.join(dir, 'targets.json'),
    '--out',
    out,
    '--format',
    'json,html',
    '--concurrency',
    '4',
    '--timeout',
    '300000',
    '--quiet',
  ];
  const timed = existsSync(TIME);
  const started = performance.now();
  const child = spawnSync(timed ? TIME : process.execPath, timed ? ['-v', process.execPath, ...args] : args, {
    encoding: 'utf8',
    env: { ...process.env, IDEMSCAN_CACHE: path.join(dir, 'cache') },
    maxBuffer: 64 * MiB,
  });
  const wall = (performance.now() - started) / 1000;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr)?.[1] ?? NaN);
  const size = (f: string) =>
    existsSync(path.join(out, f)) ? `${(statSync(path.join(out, f)).size / MiB).toFixed(1)} MiB` : 'none';
  console.log(
    `\n${mode} x${copies}: exit ${child.status}, peak RSS ${Number.isNaN(rssKb) ? '?' : `${(rssKb / 1024).toFixed(0)} MiB`}, wall ${wall.toFixed(1)} s, report.json ${size('report.json')}, report.html ${size('report.html')}`,
  );
  if (existsSync(path.join(out, 'report.json'))) {
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report;
    for (const s of report.servers) {
      const rules = [...new Set(s.findings.map((f) => f.rule))].join(', ');
      console.log(
        `  ${s.name}: ${s.status}${s.failure ? ` (${s.failure.kind}: ${s.failure.message.slice(0, 100)})` : ''}, ${s.tools.length} tools, ${(s.durationMs / 1000).toFixed(1)} s; server findings: ${rules || 'none'}`,
      );
    }
  } else {
    console.log(
      child.stderr
        .split('\n')
        .filter((l) => !/^\s/.test(l))
        .slice(-5)
        .join('\n'),
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

for (const mode of modesArg.split(',')) run(mode);
