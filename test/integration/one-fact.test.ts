/**
 * Issue 17, facts kept once: an interrupt is its own failure kind (it was recorded as `timeout`),
 * `options` and `manifest` are typed (a wrong type no longer loads, unknown keys still do), a rule
 * carries no scope of its own (the catalogue's is read), and a raw hint becomes text one way.
 */
import { expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { DEFAULT_CONNECT_OPTIONS, observe } from '../../src/connect/observe.js';
import { serverEnv } from '../../src/launch/server-env.js';
import { parseReport } from '../../src/compare/read.js';
import { RULES } from '../../src/classify/rules/index.js';
import { CATALOGUE } from '../../src/model/catalogue.js';
import { hintText } from '../../src/model/verdicts.js';
import { DEFAULTS } from '../../src/model/limits.js';
import { summarize } from '../../src/model/summary.js';

it('a scan ended by a signal fails with kind interrupted, not timeout', async () => {
  const controller = new AbortController();
  controller.abort();
  const obs = await observe(
    { transport: 'stdio', command: process.execPath, args: [FIXTURES.modernStdio], env: {}, spawnEnv: serverEnv() },
    { ...DEFAULT_CONNECT_OPTIONS, signal: controller.signal },
  );
  expect(obs.failure?.kind).toBe('interrupted');
});

const report = (options: object, manifest?: object) =>
  JSON.stringify({
    schemaVersion: '1',
    tool: { name: 'idemscan', version: '0.1.0' },
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    options,
    summary: summarize([]),
    servers: [],
    ...(manifest ? { manifest } : {}),
  });

it('options and manifest are typed; unknown keys of older reports pass through in their place', () => {
  expect(() => parseReport(report({ timeoutMs: '30000' }), 'r.json')).toThrow(/timeoutMs/);
  expect(() => parseReport(report({}, { packages: 'x' }), 'r.json')).toThrow(/packages/);
  const loaded = parseReport(
    report({ concurrency: 4, legacyKey: 1, trust: [] }, { node: 'v20', future: true }),
    'r.json',
  );
  expect(JSON.stringify(loaded.options)).toBe('{"concurrency":4,"trust":[],"legacyKey":1}');
  expect(loaded.manifest).toEqual({ node: 'v20', future: true });
});

it("the rules' scope and order are the catalogue's", () => {
  expect(RULES.filter((r) => 'scope' in r).map((r) => r.id)).toEqual([]);
  const ran = CATALOGUE.filter((e) => e.scope !== 'connection' && e.scope !== 'probe').map((e) => e.id);
  expect(RULES.map((r) => r.id)).toEqual(ran);
});

it('a raw hint as text: JSON, so the string "true" never reads as the boolean; absent is undefined', () => {
  expect(hintText({ readOnlyHint: true }, 'readOnlyHint')).toBe('true');
  expect(hintText({ readOnlyHint: 'true' }, 'readOnlyHint')).toBe('"true"');
  expect(hintText({ readOnlyHint: null }, 'readOnlyHint')).toBe('null');
  expect(hintText({}, 'readOnlyHint')).toBeUndefined();
  expect(DEFAULT_CONNECT_OPTIONS.timeoutMs).toBe(DEFAULTS.timeoutMs);
});

it('one view of a server for the table, Markdown and HTML, computed once', async () => {
  const { serverView } = await import('../../src/render/view.js');
  const tool = (verdict: string) => ({ verdict }) as never;
  const s = {
    tools: [tool('keyed'), tool('protocol-keyed'), tool('unprotected')],
    findings: [{ rule: 'tool-list-incomplete' }],
  } as never;
  const v = serverView(s);
  expect(serverView(s)).toBe(v);
  expect([v.counts.keyed, v.counts['protocol-keyed'], v.counts.unprotected, v.protected, v.partial]).toEqual([
    1,
    1,
    1,
    2,
    true,
  ]);
});
