/**
 * What the CLI loads before it does anything (issue 11: start-up). `audit` of one stdio server
 * needs neither zod, the SDK client, nor the HTML, Markdown and SARIF reporters; `--version` needs
 * no command module at all; the read-only commands (`report`, `diff`, `merge`, `schema`) load no
 * scanning code (issue 17). The CPU figures themselves are in bench/startup.bench.ts.
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';

const HOOK = fileURLToPath(new URL('../helpers/log-imports.mjs', import.meta.url));

async function loaded(args: string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-imports-'));
  const log = path.join(dir, 'imports.log');
  const r = await execa(process.execPath, ['--import', HOOK, CLI, ...args], {
    env: { IDEMSCAN_IMPORT_LOG: log },
    reject: false,
    cwd: dir,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

it(
  'audit of a stdio server loads no zod, SDK client, HTML, Markdown or SARIF writer',
  { timeout: 30_000 },
  async () => {
    const urls = await loaded(['audit', '--out', 'out', '--', process.execPath, FIXTURES.rules]);
    expect(
      urls.some((u) => u.includes('/dist/app/scan/scan.js')),
      'the scanner itself',
    ).toBe(true);
    expect(
      urls.some((u) => u.includes('/dist/render/tools.js')),
      'the tool view it prints',
    ).toBe(true);
    const needless = urls.filter((u) =>
      /\/node_modules\/(?:zod|@modelcontextprotocol\/client)\/|\/render\/(?:html\/index|markdown)\.js/.test(u),
    );
    expect(needless).toEqual([]);
  },
);

it('--version loads no command module', async () => {
  const urls = await loaded(['--version']);
  // render/terminal.js is the escaper of server text, and render/message.js the template every
  // message is made with: a bad flag is reported through them before any command runs.
  expect(
    urls.filter(
      (u) =>
        /\/dist\/(?:cli\/commands|app\/scan\/scan|render\/(?!terminal\.js|message\.js))/.test(u) || SCANNING.test(u),
    ),
  ).toEqual([]);
});

/** The scanner, the connector, redaction and the target readers (the cache directory's name is a one-line module). */
const SCANNING = /\/dist\/(?:app\/scan\/scan\.js|connect\/|redact\/|targets\/|launch\/)/;
const CENSUS = fileURLToPath(new URL('../../output/ecosystem/2026-11-30/report.json', import.meta.url));

it.each([
  ['report', ['report', CENSUS, '--format', 'json,md,html,sarif,csv', '--out', 'out']],
  ['diff', ['diff', CENSUS, CENSUS]],
  ['merge', ['merge', CENSUS, '--json', 'merged.json']],
  ['schema', ['schema']],
])('%s loads no scanning code', { timeout: 30_000 }, async (_name, args) => {
  const urls = await loaded(args);
  expect(urls.some((u) => u.includes('/dist/cli/main.js'))).toBe(true);
  expect(urls.filter((u) => SCANNING.test(u))).toEqual([]);
});
