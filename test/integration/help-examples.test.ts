/**
 * Every command's --help ends with pasteable examples (cli/examples.ts), and every flag an example
 * uses is one that its command lists: an example cannot name a flag that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/cli/examples.js';
import { CLI, idemscan } from '../helpers/cli.js';
import path from 'node:path';

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
  'registry pull',
  'targets refresh',
  'where',
  'login',
  'logout',
];
const GROUPS = ['registry', 'targets'];
/** How the tests run the CLI (`node` and main.js, relative to the repository): what the examples say. */
const RAN = `node ${path.relative(process.cwd(), CLI)}`;

async function help(command: string): Promise<string> {
  const r = await idemscan([...command.split(' ').filter(Boolean), '--help']);
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout;
}

/** The flags of the Options section, e.g. `--fail-on`, `-q`. */
function optionsOf(text: string): Set<string> {
  const flags = new Set<string>();
  for (const line of text.slice(text.indexOf('Options:'), text.indexOf('\nExamples:')).split('\n')) {
    const m = /^ {2}(?:(-\w), )?(--[\w-]+)/.exec(line);
    if (m?.[1]) flags.add(m[1]);
    if (m?.[2]) flags.add(m[2]);
  }
  return flags;
}

describe('--help examples', () => {
  it('every command and group has them, and nothing else does', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(['', ...COMMANDS, ...GROUPS].sort());
    for (const command of COMMANDS) expect(EXAMPLES[command]!.length, command).toBeGreaterThanOrEqual(2);
  });

  it.concurrent.each(['', ...COMMANDS, ...GROUPS])(
    '%j: shown after the options, as the user ran idemscan',
    async (command) => {
      const text = await help(command);
      const examples = text.slice(text.indexOf('\nExamples:\n'));
      expect(text.indexOf('\nExamples:\n'), 'an Examples section').toBeGreaterThan(text.indexOf('Options:'));
      const lines = examples.split('\n').filter((l) => l.startsWith(`  ${RAN} `));
      expect(lines).toEqual(EXAMPLES[command]!.map(([, how]) => `  ${RAN} ${how}`));
    },
  );

  it.concurrent.each(
    Object.values(EXAMPLES)
      .flat()
      .map(([, how]) => how),
  )('%s: its flags exist', async (how) => {
    const words = how.split(' ');
    const command = ['registry', 'targets'].includes(words[0]!) ? words.slice(0, 2).join(' ') : words[0]!;
    const known = optionsOf(await help(command));
    known.add('--help');
    const flags = words.filter((w) => w.startsWith('-') && w !== '--');
    for (const flag of flags) expect(known, `${how}: ${flag}`).toContain(flag);
  });
});
