/** The rule catalogue is the one source of rule ids and severities (src/model/catalogue.ts). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, RULE, ruleEntry, verdictRule } from '../../src/model/catalogue.js';
import { Verdict } from '../../src/model/schema.js';
import { finding } from '../../src/model/finding.js';
import { RULES } from '../../src/classify/rules/index.js';

const src = new URL('../../src/', import.meta.url);
const rulesDir = new URL('classify/rules/', src);
/** Files of src/classify/rules that are no rule: the registry, the catalogue and its helpers. */
const NOT_RULES = new Set(['index.ts', 'catalogue.ts', 'finding.ts', 'fixes.ts', 'types.ts', 'words.ts']);

function sourceFiles(dir: URL): URL[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(new URL(`${e.name}/`, dir)) : e.name.endsWith('.ts') ? [new URL(e.name, dir)] : [],
  );
}

describe('rule catalogue', () => {
  it('has every rule file: each runs, and its id is in the catalogue', () => {
    const files = readdirSync(rulesDir).filter((f) => f.endsWith('.ts') && !NOT_RULES.has(f));
    expect(files.length).toBe(RULES.length);
    const ids = new Set<string>(CATALOGUE.map((e) => e.id));
    for (const rule of RULES) expect(ids.has(rule.id), rule.id).toBe(true);
    // A rule file is named after its id.
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it('gives every id a page under docs/rules, a title and a one-line summary', () => {
    for (const e of CATALOGUE) {
      expect(existsSync(new URL(`../../docs/rules/${e.docs}.md`, import.meta.url)), e.id).toBe(true);
      expect(e.title.length, e.id).toBeGreaterThan(10);
      expect(e.summary, e.id).toMatch(/^[a-z`].{10,200}\.$/i);
      expect(e.summary, e.id).not.toContain('\n');
    }
  });

  it('gives every verdict a --fail-on rule for SARIF, verdict/<verdict>, on the one page that lists them all', () => {
    const page = readFileSync(new URL('../../docs/rules/verdict.md', import.meta.url), 'utf8');
    for (const v of Verdict.options) {
      const r = verdictRule(v);
      expect(r).toMatchObject({ id: `verdict/${v}`, severity: 'error', docs: 'verdict' });
      expect(r.title).toContain(v === 'idempotent' ? 'idempotentHint' : v);
      expect(page).toContain(`| \`verdict/${v}\` |`);
      expect(CATALOGUE.some((e) => e.id === r.id)).toBe(false); // no finding has it: without a verdict in --fail-on, SARIF lists none
    }
    expect(page).toContain('**Severity:** error');
  });

  it('agrees with the severity each page states', () => {
    for (const e of CATALOGUE) {
      const page = readFileSync(new URL(`../../docs/rules/${e.docs}.md`, import.meta.url), 'utf8');
      expect(page, e.id).toContain(`**Severity:** ${e.severity}`);
    }
  });

  it('is the only place ids and severities are written: no finding is a literal anywhere else in src', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(src)) {
      if (file.pathname.endsWith('/model/catalogue.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const e of CATALOGUE)
        if (text.includes(`'${e.id}'`)) offenders.push(`${file.pathname.split('/src/')[1]}: '${e.id}'`);
      if (/\brule: '/.test(text)) offenders.push(`${file.pathname.split('/src/')[1]}: rule: '...'`);
    }
    expect(offenders).toEqual([]);
  });

  it('finding() takes the usual severity from the catalogue, and a per-finding one when given', () => {
    expect(finding(RULE.stdoutNoise, 'm', { evidence: 'stdout' })).toEqual({
      rule: 'stdout-noise',
      severity: 'warning',
      message: 'm',
      evidence: 'stdout',
    });
    expect(finding(RULE.readNameNotReadOnly, 'm', { severity: 'info', tool: 't' })).toEqual({
      rule: 'read-name-not-read-only',
      severity: 'info',
      message: 'm',
      tool: 't',
    });
    expect(ruleEntry(RULE.duplicateToolName).severity).toBe('error');
  });
});
