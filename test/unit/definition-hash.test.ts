/** definitionHash (docs/DEFINITION-HASH.md): the documented example, RFC 8785 details, and hostile shapes. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson, definitionHashes, Unhashable, type DefinitionHashes } from '../../src/model/definition-hash.js';
import { classifyServer } from '../../src/classify/index.js';

const hashes = (raw: Record<string, unknown>) => definitionHashes(raw) as DefinitionHashes;

describe('the worked example of docs/DEFINITION-HASH.md', () => {
  const doc = readFileSync(new URL('../../docs/DEFINITION-HASH.md', import.meta.url), 'utf8');
  const example = doc.slice(doc.indexOf('## Worked example'));
  const blocks = [...example.matchAll(/```\w*\n([^`]*)```/g)].map((m) => m[1]!.trim());
  const [entry, canonical, table, shell] = blocks as [string, string, string, string];

  it('has the canonical text and hashes the page shows', () => {
    const raw = JSON.parse(entry) as Record<string, unknown>;
    const { _meta, ...definition } = raw;
    expect(_meta).toBeDefined();
    expect(canonicalJson(definition)).toBe(canonical);
    const got = hashes(raw);
    const rows = Object.fromEntries(table.split('\n').map((l) => l.trim().split(/\s+/) as [string, string]));
    expect(got.hash).toBe(rows.definitionHash);
    expect(got.fields).toEqual(Object.fromEntries(Object.entries(rows).filter(([k]) => k !== 'definitionHash')));
    expect(shell).toContain(canonical);
  });
});

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys at every depth by UTF-16 code units, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    // U+E000 sorts after U+1F600 in code units (0xD83D < 0xE000), before it in code points.
    expect(canonicalJson({ '\u{1F600}': 1, '\uE000': 2, a: 3 })).toBe('{"a":3,"\u{1F600}":1,"\uE000":2}');
  });

  it('writes numbers and strings as ECMAScript does', () => {
    expect(canonicalJson([-0, 1e21, 1e-7, 0.1, 100, 1.5e300])).toBe('[0,1e+21,1e-7,0.1,100,1.5e+300]');
    expect(canonicalJson('a"\\\n\u0001\u007f\u00e9\u{1F600}')).toBe('"a\\"\\\\\\n\\u0001\u007f\u00e9\u{1F600}"');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"'); // a lone surrogate: escaped, not refused
  });

  it('is the same whatever the key order or whitespace of the JSON received', () => {
    const a = JSON.parse(
      '{"name":"t","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}},"annotations":{"readOnlyHint":true}}',
    );
    const b = JSON.parse(
      ' { "annotations" : { "readOnlyHint" : true } , "inputSchema" : { "properties" : { "x" : { "type" : "\\u0073tring" } } , "type" : "object" } , "name" : "t" } ',
    );
    expect(hashes(a)).toEqual(hashes(b));
    expect(hashes(a).hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes only the definition fields, absent ones omitted, null kept', () => {
    const base = { name: 't', description: 'd' };
    expect(hashes({ ...base, _meta: { x: 1 }, icons: [], other: 2 })).toEqual(hashes(base));
    expect(hashes({ ...base, title: undefined })).toEqual(hashes(base));
    expect(hashes({ ...base, title: null }).hash).not.toBe(hashes(base).hash);
    expect(Object.keys(hashes({ ...base, outputSchema: {} }).fields)).toEqual(['description', 'name', 'outputSchema']);
  });
});

describe('hostile and odd definitions', () => {
  it('nests 200,000 levels without recursion', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(definitionHashes({ name: 'deep', inputSchema: deep })).not.toBeInstanceOf(Unhashable);
  });

  it('refuses what JSON cannot hold: Infinity (1e400), cycles, functions', () => {
    expect(definitionHashes(JSON.parse('{"name":"n","inputSchema":{"maximum":1e400}}'))).toBeInstanceOf(Unhashable);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(definitionHashes({ name: 'c', inputSchema: cyclic })).toBeInstanceOf(Unhashable);
    expect(definitionHashes({ name: 'f', inputSchema: { f: () => 1 } })).toBeInstanceOf(Unhashable);
  });

  it('an unhashable tool has no hash and a definition-unhashable finding', () => {
    const c = classifyServer({
      name: 's',
      rawTools: [JSON.parse('{"name":"n","inputSchema":{"maximum":1e400}}'), { name: 'ok' }],
    });
    expect(c.tools[0]!.definitionHash).toBeUndefined();
    expect(c.tools[0]!.findings.map((f) => f.rule)).toContain('definition-unhashable');
    expect(c.tools[1]!.definitionHash).toMatch(/^sha256:/);
  });

  it('hashes a description in full, not as the report cuts it', () => {
    const long = (end: string) =>
      classifyServer({ name: 's', rawTools: [{ name: 't', description: 'x'.repeat(10_000) + end }] }).tools[0]!;
    expect(long('a').description).toBe(long('b').description);
    expect(long('a').definitionHash).not.toBe(long('b').definitionHash);
  });
});

describe('redaction', () => {
  it('never blanks part of a hash that happens to contain a secret value', async () => {
    const { Redactor } = await import('../../src/redact/redact.js');
    const { redactServer } = await import('../../src/redact/redact-report.js');
    const c = classifyServer({ name: 's', rawTools: [{ name: 'tool', description: 'd' }] });
    const hash = c.tools[0]!.definitionHash!;
    const secret = hash.slice(20, 32); // a secret-named env value that the hex happens to contain
    const server = {
      name: 's',
      status: 'ok' as const,
      target: { transport: 'stdio' as const },
      idempotencyCapability: false,
      durationMs: 1,
      tools: c.tools,
      findings: c.findings,
    };
    const clean = redactServer(server, new Redactor({ env: { API_TOKEN: secret } }));
    expect(clean.tools[0]!.definitionHash).toBe(hash);
    expect(clean.tools[0]!.fieldHashes).toEqual(c.tools[0]!.fieldHashes);
  });
});
