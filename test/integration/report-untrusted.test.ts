/**
 * A saved report is someone else's text (a fork's artifact, a shard CI downloads): its profile
 * rules' `docs` must never make `report --format sarif`, `merge` or any reporter read a file. A
 * canary file and a canary in idemscan's own environment (`/proc/self/environ`) must not appear.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sarifReporter } from '../../src/render/sarif.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { toolsReporter } from '../../src/render/tools.js';
import { htmlReporter } from '../../src/render/html/index.js';
import { idemscan } from '../helpers/cli.js';
import { okServer, reportOf } from '../helpers/reports.js';

const CANARY = 'canary-5b2e-file-text-not-for-reports';
const ENV_CANARY = 'canary-env-77d1-not-for-reports';
const RULE_PAGES = fileURLToPath(new URL('../../docs/rules/', import.meta.url));

// At load: it.each needs the paths when the tests are collected.
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-crafted-'));
const canaryFile = path.join(dir, 'secret.txt');
beforeAll(() => writeFileSync(canaryFile, `${CANARY}\n`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `docs` values that named files: relative out of docs/rules, absolute, file: URLs, with `#` hiding the `.md`. */
const crafted = () => [
  `${path.relative(RULE_PAGES, canaryFile)}#`,
  path.relative(RULE_PAGES, canaryFile).replace('.txt', ''),
  '/proc/self/environ#',
  `file://${canaryFile}#`,
  `profiles/../../../${path.relative(path.resolve(RULE_PAGES, '../..'), canaryFile)}#`,
];

function craftedReport(docs: string) {
  const server = okServer('s', [{ name: 'read_x', inputSchema: { type: 'object' } }], {
    findings: [{ rule: 'evil/read', severity: 'warning', message: 'm' }],
  });
  return reportOf([server], {
    options: {
      profiles: [{ id: 'evil', title: 'Evil', rules: [{ id: 'evil/read', severity: 'warning', title: 'read', docs }] }],
    },
  });
}

describe('a crafted saved report', () => {
  it.each(crafted())('docs %s: report and merge refuse it, naming the field, and print no file text', async (docs) => {
    const file = path.join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(craftedReport(docs)));
    const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}`);
    const r = await idemscan(['report', file, '--format', 'sarif,md,html,tools', '--out', out], {
      env: { ...process.env, ENV_CANARY },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('options.profiles[0].rules[0].docs: expected an https URL or a page idemscan ships');
    const m = await idemscan(['merge', file, '--out', out, '--format', 'sarif,md'], {
      env: { ...process.env, ENV_CANARY },
    });
    expect(m.exitCode).toBe(2);
    expect(m.stderr).toContain('options.profiles[0].rules[0].docs');
    let written = '';
    try {
      for (const f of readdirSync(out)) written += readFileSync(path.join(out, f), 'utf8');
    } catch {
      // nothing written: the report was refused
    }
    for (const text of [r.stdout, r.stderr, m.stdout, m.stderr, written]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(ENV_CANARY);
    }
  });

  it.each(crafted())('docs %s given to the reporters directly (no schema): no file is read', (docs) => {
    process.env.ENV_CANARY = ENV_CANARY;
    try {
      const report = craftedReport(docs);
      for (const render of [sarifReporter, markdownReporter, toolsReporter, htmlReporter]) {
        const text = render.render(report, {});
        expect(text).not.toContain(CANARY);
        expect(text).not.toContain(ENV_CANARY);
        const linked = render.render(report, { rulesBaseUrl: 'https://example.org/rules' });
        expect(linked).not.toContain(CANARY);
        // No link to it either (the HTML footer may show the options as text).
        expect(linked).not.toMatch(/(?:href="|helpUri":"|\]\()[^"\s)]*secret/);
      }
    } finally {
      delete process.env.ENV_CANARY;
    }
  });

  it("a builtin profile's page and an https page still load", async () => {
    const file = path.join(dir, 'ok.json');
    const report = craftedReport('https://wiki.example.org/mcp#read');
    report.options.profiles!.push({
      id: 'openai-apps',
      title: 'OpenAI',
      rules: [
        {
          id: 'openai-apps/explicit-hints',
          severity: 'error',
          title: 't',
          docs: 'profiles/openai-apps/explicit-hints',
        },
      ],
    });
    report.servers[0]!.findings.push({ rule: 'openai-apps/explicit-hints', severity: 'error', message: 'm' });
    writeFileSync(file, JSON.stringify(report));
    const out = path.join(dir, 'ok-out');
    const r = await idemscan(['report', file, '--format', 'sarif', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const sarif = JSON.parse(readFileSync(path.join(out, 'report.sarif'), 'utf8'));
    const rules = sarif.runs[0].tool.driver.rules as { id: string; helpUri?: string; help: { text: string } }[];
    expect(rules.find((x) => x.id === 'evil/read')!.helpUri).toBe('https://wiki.example.org/mcp#read');
    const shipped = readFileSync(path.join(RULE_PAGES, 'profiles/openai-apps/explicit-hints.md'), 'utf8');
    expect(rules.find((x) => x.id === 'openai-apps/explicit-hints')!.help.text).toContain(
      shipped.split('\n')[2]!.replaceAll('**', '').slice(0, 20),
    );
  });
});
