/** Every option each command's --help lists is in the README or the reference it links (docs/REFERENCE.md), and the help shows choices and defaults. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idemscan } from '../helpers/cli.js';

const README = ['../../README.md', '../../docs/REFERENCE.md']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n');
const COMMANDS = [
  'scan',
  'audit',
  'probe',
  'probe-census',
  'lock',
  'install',
  'schema',
  'diff',
  'merge',
  'report',
  'index',
  'stats',
  'where',
];

/** The flags of the Options section of a --help text, e.g. `--fail-on`, `-q`. */
function optionsOf(help: string): string[] {
  const section = help.slice(help.indexOf('Options:'));
  const flags: string[] = [];
  for (const line of section.split('\n')) {
    const m = /^ {2}(?:(-\w), )?(--[\w-]+)/.exec(line);
    if (!m) continue;
    if (m[1]) flags.push(m[1]);
    flags.push(m[2]!);
  }
  return flags.filter((f) => f !== '--help' && f !== '-h');
}

describe('--help agrees with the README and docs/REFERENCE.md', () => {
  it.concurrent.each(COMMANDS)('%s', async (command) => {
    const r = await idemscan([command, '--help']);
    expect(r.exitCode).toBe(0);
    const flags = optionsOf(r.stdout);
    if (command !== 'schema' && command !== 'where') expect(flags.length).toBeGreaterThan(0);
    const missing = flags.filter(
      (f) => !README.includes(`\`${f}`) && !README.includes(` ${f} `) && !README.includes(`${f}\``),
    );
    expect(missing, `${command} --help options neither the README nor docs/REFERENCE.md mentions`).toEqual([]);
  });

  it('choices and defaults are in the help', async () => {
    const help = async (command: string) => (await idemscan([command, '--help'])).stdout.replace(/\s+/g, ' '); // unwrapped
    const scan = await help('scan');
    expect(scan).toMatch(
      /--format <list> formats to write under --out, comma-separated \(choices: json, html, md, sarif, manifest, csv, ndjson\) \(default: json\)/,
    );
    expect(scan).toMatch(/--timeout <ms> bound on each server, from start to last page \(default: 30000\)/);
    const report = await help('report');
    expect(report).toMatch(/choices: json, html, md, sarif, manifest, csv, ndjson, table, tools\) \(default: html\)/);
    const audit = await help('audit');
    expect(audit).not.toContain('--concurrency'); // one server: it did nothing
  });
});
