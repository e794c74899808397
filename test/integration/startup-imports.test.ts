/**
 * What the CLI loads before it does anything (issue 11: start-up). `audit` of one stdio server
 * needs neither zod, the SDK client, nor the HTML, Markdown and SARIF reporters; `--version` needs
 * no command module at all. The CPU figures themselves are in bench/startup.bench.ts.
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
  const r = await execa(process.execPath, ['--import', HOOK, CLI, ...args], { env: { IDEMSCAN_IMPORT_LOG: log }, reject: false, cwd: dir });
  expect(r.exitCode, r.stderr).toBe(0);
  return readFileSync(log, 'utf8').trim().split('\n');
}

it('audit of a stdio server loads no zod, SDK client, HTML, Markdown or SARIF writer', { timeout: 30_000 }, async () => {
  const urls = await loaded(['audit', '--out', 'out', '--', process.execPath, FIXTURES.rules]);
  expect(urls.some((u) => u.includes('/dist/scan.js')), 'the scanner itself').toBe(true);
  expect(urls.some((u) => u.includes('/dist/render/tools.js')), 'the tool view it prints').toBe(true);
  const needless = urls.filter((u) => /\/node_modules\/(?:zod|@modelcontextprotocol\/client)\/|\/render\/(?:html\/index|markdown)\.js/.test(u));
  expect(needless).toEqual([]);
});

it('--version loads no command module', async () => {
  const urls = await loaded(['--version']);
  expect(urls.filter((u) => /\/dist\/(?:cli\/commands|scan|render\/)/.test(u))).toEqual([]);
});
