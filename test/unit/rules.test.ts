/**
 * Every rule of the catalogue, table-driven from its fixture test/rules/<id>.cases.ts (the rule
 * tester: test/helpers/rule-tester.ts; CONTRIBUTING.md, "Add a rule"). A case with stdout lines
 * needs a stdio server: test/integration/rules-stdio.test.ts runs those.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/classify/rules/index.js';
import { CATALOGUE } from '../../src/model/catalogue.js';
import { checkCase, findingsOf, needsStdio, type RuleCase, type RuleCases } from '../helpers/rule-tester.js';

const FIXTURES = new URL('../rules/', import.meta.url);
const fixtureOf = async (id: string): Promise<RuleCases | undefined> =>
  existsSync(new URL(`${id}.cases.ts`, FIXTURES))
    ? ((await import(new URL(`${id}.cases.ts`, FIXTURES).href)) as { default: RuleCases }).default
    : undefined;
const fixtures = await Promise.all(CATALOGUE.map(async (r) => [r.id, await fixtureOf(r.id)] as const));

describe('rule fixtures', () => {
  it('every rule of the catalogue has one, with a valid and an invalid case, and no fixture names another rule', () => {
    expect(fixtures.filter(([, f]) => !f || f.valid.length === 0 || f.invalid.length === 0).map(([id]) => id)).toEqual(
      [],
    );
    const ids = new Set<string>(CATALOGUE.map((r) => r.id));
    const files = readdirSync(FIXTURES).filter((f) => !ids.has(f.replace(/\.cases\.ts$/, '')));
    expect(files).toEqual([]);
  });

  it('case names are unique within a fixture', () => {
    for (const [id, f] of fixtures) {
      const names = [...(f?.valid ?? []), ...(f?.invalid ?? [])].map((c) => c.name);
      expect(new Set(names).size, id).toBe(names.length);
    }
  });
});

for (const [id, cases] of fixtures) {
  const pure = (c: RuleCase) => !needsStdio(c.input);
  const table = [
    ...(cases?.valid ?? []).filter(pure).map((c) => [`valid: ${c.name}`, c] as const),
    ...(cases?.invalid ?? []).filter(pure).map((c) => [`invalid: ${c.name}`, c] as const),
  ];
  // stdout-noise has none here: every case of it is a stdio server's.
  if (table.length > 0)
    describe(id, () => {
      for (const [title, c] of table) it(title, async () => checkCase(id, c, await findingsOf(c.input)));
    });
}

describe('catalogue', () => {
  it('has unique ids, each with a page under docs/rules listed in docs/rules/README.md', () => {
    const ids = CATALOGUE.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const index = readFileSync(new URL('../../docs/rules/README.md', import.meta.url), 'utf8');
    for (const r of CATALOGUE) {
      expect(existsSync(new URL(`../../docs/rules/${r.id}.md`, import.meta.url)), r.id).toBe(true);
      expect(index).toContain(`[${r.id}](${r.id}.md)`);
    }
  });
  it('lists every rule that runs', () => {
    expect(RULES.every((r) => CATALOGUE.some((c) => c.id === r.id))).toBe(true);
  });
});
