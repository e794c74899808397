import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtinProfiles,
  evaluateProfile,
  loadProfiles,
  Profile,
  profileJsonSchema,
  profileUse,
  reportRules,
} from '../../src/classify/profiles/index.js';
import { CATALOGUE } from '../../src/model/catalogue.js';
import { InputError } from '../../src/model/input-error.js';
import { parseFailOn } from '../../src/app/scan/fail-on-words.js';

const openai = builtinProfiles().get('openai-apps')!;
const anthropic = builtinProfiles().get('anthropic-directory')!;
const rules = (p: Profile, raw: Record<string, unknown>) =>
  evaluateProfile(p, { name: 't', ...raw }, 't').map((f) => f.rule);
const docs = (rel: string) => new URL(`../../docs/rules/profiles/${rel}`, import.meta.url);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'idemscan-profiles-unit-'));
const file = (name: string, content: unknown) => {
  const p = path.join(tmp, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const custom = {
  id: 'acme',
  title: 'Acme review',
  source: ['https://wiki.acme.example/mcp'],
  requirements: [
    {
      id: 'hints',
      severity: 'warning',
      title: 'idempotentHint explicit on writes',
      appliesTo: 'not-read-only',
      explicitHints: ['idempotentHint'],
    },
    { id: 'title', severity: 'info', title: 'a title anywhere', titleRequired: 'either' },
    {
      id: 'closed-deletes',
      severity: 'error',
      title: 'no closed-world deletes',
      forbidden: [
        { when: { destructiveHint: true, openWorldHint: false }, message: 'a destructive tool claims a closed world' },
      ],
      docs: 'https://wiki.acme.example/mcp#deletes',
    },
  ],
};

describe('builtin profiles', () => {
  it('parse, and each requirement has a page under docs/rules/profiles, listed in its README, citing a source of the profile', () => {
    const index = readFileSync(docs('README.md'), 'utf8');
    for (const p of builtinProfiles().values()) {
      expect(p.source.length).toBeGreaterThan(0);
      for (const r of p.requirements) {
        expect(existsSync(docs(`${p.id}/${r.id}.md`)), `${p.id}/${r.id}`).toBe(true);
        expect(index).toContain(`(${p.id}/${r.id}.md)`);
        const page = readFileSync(docs(`${p.id}/${r.id}.md`), 'utf8');
        expect(
          p.source.some((url) => page.includes(url)),
          `${p.id}/${r.id} cites a source`,
        ).toBe(true);
      }
    }
  });

  it('rule ids do not collide with the rules catalogue', () => {
    const ids = new Set<string>(CATALOGUE.map((r) => r.id));
    for (const p of builtinProfiles().values()) expect(ids.has(p.id)).toBe(false);
  });

  it('docs/rules/profiles/profile.schema.json is the JSON Schema of the zod schema', () => {
    expect(JSON.parse(readFileSync(docs('profile.schema.json'), 'utf8'))).toEqual(profileJsonSchema());
  });
});

describe('evaluateProfile', () => {
  it('openai-apps: all three hints as booleans, read-only tools included', () => {
    expect(
      rules(openai, { annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false } }),
    ).toEqual([]);
    expect(rules(openai, { annotations: { readOnlyHint: true } })).toEqual(['openai-apps/explicit-hints']);
    expect(rules(openai, {})).toEqual(['openai-apps/explicit-hints', 'openai-apps/retry-disclosure']);
  });

  it('openai-apps: a write says whether a retry repeats its effect, by idempotentHint, a key or its description', () => {
    const hints = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    const write = (more: Record<string, unknown>) => rules(openai, { annotations: hints, ...more });
    expect(write({})).toEqual(['openai-apps/retry-disclosure']);
    expect(write({ annotations: { ...hints, idempotentHint: false } })).toEqual([]);
    expect(write({ annotations: { ...hints, idempotentHint: 'yes' } })).toEqual(['openai-apps/retry-disclosure']);
    const keyed = { type: 'object', properties: { idempotency_key: { type: 'string' } } };
    expect(write({ inputSchema: keyed })).toEqual([]);
    expect(write({ description: 'Creates an order. Retrying creates a duplicate order.' })).toEqual([]);
    expect(write({ description: 'Creates an order.' })).toEqual(['openai-apps/retry-disclosure']);
    expect(rules(openai, { annotations: { ...hints, readOnlyHint: true } })).toEqual([]);
  });

  it('reads hints as received: null and strings are not set, and the message says what was there', () => {
    const [f] = evaluateProfile(
      openai,
      { name: 't', annotations: { readOnlyHint: null, destructiveHint: false, openWorldHint: 'false' } },
      't',
    );
    expect(f).toMatchObject({
      rule: 'openai-apps/explicit-hints',
      severity: 'error',
      tool: 't',
      evidence: 'annotations',
    });
    expect(f!.message).toContain('readOnlyHint is null, openWorldHint is "false"');
    const [one] = evaluateProfile(
      openai,
      { name: 't', annotations: { readOnlyHint: true, destructiveHint: false } },
      't',
    );
    expect(one).toMatchObject({ evidence: 'annotations.openWorldHint' });
    expect(one!.message).toContain('openWorldHint is missing');
  });

  it('anthropic-directory: title inside annotations, readOnlyHint everywhere, destructiveHint on writes, names up to 64', () => {
    expect(rules(anthropic, { annotations: { title: 'T', readOnlyHint: true } })).toEqual([]);
    expect(rules(anthropic, { annotations: { title: 'T', readOnlyHint: false, destructiveHint: true } })).toEqual([]);
    expect(rules(anthropic, { annotations: { title: 'T', readOnlyHint: false } })).toEqual([
      'anthropic-directory/destructive-hint',
    ]);
    expect(rules(anthropic, { annotations: { title: '  ', destructiveHint: true } })).toEqual([
      'anthropic-directory/title-required',
      'anthropic-directory/read-only-hint',
    ]);
    const [top] = evaluateProfile(anthropic, { name: 't', title: 'T', annotations: { readOnlyHint: true } }, 't');
    expect(top).toMatchObject({ rule: 'anthropic-directory/title-required', evidence: 'annotations.title' });
    expect(top!.message).toContain('the top-level title is there');
    expect(rules(anthropic, { name: 'x'.repeat(64), annotations: { title: 'T', readOnlyHint: true } })).toEqual([]);
    expect(rules(anthropic, { name: 'x'.repeat(65), annotations: { title: 'T', readOnlyHint: true } })).toEqual([
      'anthropic-directory/name-length',
    ]);
  });

  it('custom: appliesTo, titleRequired either, forbidden only on hints given with those values', () => {
    const p = Profile.parse(custom);
    expect(
      rules(p, { title: 'T', annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false } }),
    ).toEqual(['acme/closed-deletes']);
    expect(rules(p, { annotations: { title: 'T', readOnlyHint: false, destructiveHint: true } })).toEqual([
      'acme/hints',
    ]); // openWorldHint absent: no match
    expect(rules(p, { annotations: { readOnlyHint: false, idempotentHint: true } })).toEqual(['acme/title']);
    const [f] = evaluateProfile(
      p,
      { name: 't', title: 'T', annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false } },
      't',
    );
    expect(f).toMatchObject({
      severity: 'error',
      message: expect.stringContaining(
        'a destructive tool claims a closed world: destructiveHint is true and openWorldHint is false',
      ),
    });
  });
});

describe('loadProfiles', () => {
  it('builtin ids, comma lists and repeats, each profile once', async () => {
    const loaded = await loadProfiles(['openai-apps,anthropic-directory', 'openai-apps']);
    expect(loaded.map((l) => l.profile.id)).toEqual(['openai-apps', 'anthropic-directory']);
    expect(loaded[0]!.path).toBeUndefined();
  });

  it('a file: path and sha256 recorded, its rules with their docs', async () => {
    const p = file('acme.json', custom);
    const [loaded] = await loadProfiles([p]);
    expect(loaded!.path).toBe(p);
    expect(loaded!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const use = profileUse(loaded!);
    expect(use.rules.map((r) => r.id)).toEqual(['acme/hints', 'acme/title', 'acme/closed-deletes']);
    expect(use.rules[2]!.docs).toBe('https://wiki.acme.example/mcp#deletes');
    expect(profileUse({ profile: openai }).rules[0]!.docs).toBe('profiles/openai-apps/explicit-hints');
    const all = reportRules({ options: { profiles: [use] } }).map((r) => r.id);
    const scanned = CATALOGUE.filter((r) => r.scope !== 'probe');
    expect(all.slice(0, scanned.length)).toEqual(scanned.map((r) => r.id));
    expect(all.slice(scanned.length)).toEqual(['acme/hints', 'acme/title', 'acme/closed-deletes']);
    // A probe's report lists its own rules too.
    expect(reportRules({ options: { probe: { tools: [] } } }).map((r) => r.id)).toContain('hints-contradict-behaviour');
  });

  it('a bad file names the file and the field', async () => {
    const bad = (content: unknown) => loadProfiles([file(`bad-${Math.random()}.json`, content)]);
    await expect(bad({ ...custom, requirements: [{ ...custom.requirements[0], severity: 'fatal' }] })).rejects.toThrow(
      /bad-.*\.json: requirements\[0\]\.severity: /,
    );
    await expect(bad({ ...custom, requirements: [{ id: 'x', severity: 'error', title: 'x' }] })).rejects.toThrow(
      /requirements\[0\]: a requirement checks something/,
    );
    await expect(bad({ ...custom, extra: 1 })).rejects.toThrow(/unknown field.*extra/);
    await expect(bad({ ...custom, id: 'Acme!' })).rejects.toThrow(/: id: expected lowercase/);
    await expect(bad({ ...custom, id: 'error' })).rejects.toThrow(/id: "error" is taken/);
    await expect(bad({ ...custom, id: 'openai-apps' })).rejects.toThrow(/a builtin profile/);
    await expect(bad('{ not json')).rejects.toThrow(/not JSON/);
    await expect(loadProfiles(['no-such-profile'])).rejects.toThrow(InputError);
    await expect(loadProfiles([path.join(tmp, 'missing.json')])).rejects.toThrow(
      /missing\.json: cannot read it: no such file \(ENOENT\)/,
    );
  });
});

describe('--fail-on with profiles', () => {
  it('profile, a profile id and a profile rule id are words once the profile is given', () => {
    const f = parseFailOn('profile', [openai, anthropic])!;
    expect([...f.profiles]).toEqual(['openai-apps', 'anthropic-directory']);
    expect([...parseFailOn('anthropic-directory', [openai, anthropic])!.profiles]).toEqual(['anthropic-directory']);
    expect([...parseFailOn('openai-apps/explicit-hints', [openai])!.rules]).toEqual(['openai-apps/explicit-hints']);
    expect(() => parseFailOn('profile')).toThrow(/no --profile/);
    expect(() => parseFailOn('anthropic-directory', [openai])).toThrow(/add --profile anthropic-directory/);
    expect(() => parseFailOn('openai-apps/explicit-hints')).toThrow(/unknown/);
  });
});
