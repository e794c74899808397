/** How idemscan was started, as hints name it: npx, the bin on PATH, or node and the path of main.js. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invocationOf, shellWord } from '../../src/model/invocation.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-invocation-'));
const clone = path.join(root, 'my clone');
const cli = path.join(clone, 'dist', 'cli', 'main.js');
mkdirSync(path.dirname(cli), { recursive: true });
writeFileSync(cli, '');
const bin = path.join(root, 'bin');
mkdirSync(bin);
symlinkSync(cli, path.join(bin, 'idemscan'));
const other = path.join(root, 'other-bin');
mkdirSync(other);
writeFileSync(path.join(other, 'idemscan'), '');

describe('invocationOf', () => {
  const base = { main: cli, cli, cwd: path.join(root, 'elsewhere') };
  it('the bin on PATH that is this program: idemscan', () => {
    expect(invocationOf({ ...base, env: { PATH: `/nowhere${path.delimiter}${bin}` } })).toBe('idemscan');
  });

  it('through npm exec or npx (npm_command=exec, its .bin on PATH): npx idemscan', () => {
    expect(invocationOf({ ...base, env: { PATH: bin, npm_command: 'exec' } })).toBe('npx idemscan');
  });

  it('not on PATH, or another idemscan first on PATH: node and the path, relative under the working directory', () => {
    expect(invocationOf({ ...base, env: { PATH: '/nowhere' } })).toBe(`node '${cli}'`);
    expect(invocationOf({ ...base, env: { PATH: `${other}${path.delimiter}${bin}` } })).toBe(`node '${cli}'`);
    expect(invocationOf({ ...base, cwd: clone, env: {} })).toBe('node dist/cli/main.js');
    // npx running another package's bin (npx vitest) is not npx idemscan.
    expect(invocationOf({ ...base, cwd: clone, env: { npm_command: 'exec', PATH: other } })).toBe(
      'node dist/cli/main.js',
    );
  });

  it('a program that is not idemscan (the library in a script, a REPL): idemscan', () => {
    expect(invocationOf({ ...base, main: path.join(root, 'script.js'), env: { PATH: bin } })).toBe('idemscan');
    expect(invocationOf({ ...base, main: undefined, env: {} })).toBe('idemscan');
  });

  it('quotes for a shell what needs it', () => {
    expect(shellWord('output/report.json')).toBe('output/report.json');
    expect(shellWord("it's here")).toBe("'it'\\''s here'");
    expect(shellWord('')).toBe("''");
  });
});
