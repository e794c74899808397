/** Redaction on hostile sizes: linear on long runs, no regex stack overflow, no recursion on deep nesting. */
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact/redact.js';
import { redactServer } from '../../src/redact/redact-report.js';
import { serverReport, toolReport } from '../helpers/reports.js';

describe('the report pass', () => {
  const secret = 'hdrvalue09';
  const r = new Redactor({ headers: { 'X-Api': secret }, url: 'https://u:pw-secret-10@example.test/mcp' });
  const tool = toolReport;
  const server = serverReport;

  it('reaches every level of a 100,000-level nesting without recursion', () => {
    let deep: Record<string, unknown> = { [secret]: `value ${secret}` };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const out = redactServer(server([tool({ annotations: { nested: deep } })], { capabilities: { x: [[deep]] } }), r);
    const bottom = (node: Record<string, unknown>) => {
      for (let i = 0; i < 100_000; i++) node = node.a as Record<string, unknown>;
      return node;
    };
    expect(bottom(out.tools[0]!.annotations!.nested as Record<string, unknown>)).toEqual({
      '[REDACTED]': 'value [REDACTED]',
    });
    const capabilities = out.capabilities as { x: Record<string, unknown>[][] };
    expect(bottom(capabilities.x[0]![0]!)).toEqual({ '[REDACTED]': 'value [REDACTED]' });
  });
});

describe('linear time on hostile text', () => {
  it('a 300 KB eyJ-eyJ-... string, and other long runs, are redacted at once', () => {
    const r = new Redactor({ headers: { A: 'a'.repeat(40), B: 'eyJ-eyJ-' } });
    for (const text of [
      'eyJ-'.repeat(75_000),
      'eyJ.'.repeat(75_000),
      'sk-'.repeat(100_000),
      'Bearer '.repeat(43_000),
      'a'.repeat(300_000),
      'aaaa… [1 more characters]'.repeat(12_000),
    ]) {
      expect(r.text(text).length).toBeGreaterThan(0);
    }
    // Milliseconds in fact; the JWT regex this replaces backtracked for minutes on the first string,
    // past the project's 60 s timeout: no clock is read here, so load cannot fail it.
  });

  it('a 16 MB token neither overflows the regex backtrack stack nor survives', () => {
    const r = new Redactor({});
    // An unbounded quantifier over a run this long throws "Maximum call stack size exceeded" in V8.
    for (const [start, body] of [
      ['sk-', 'a'],
      ['Bearer ', 'b'],
      ['ghp_', 'c'],
      ['eyJ', 'd'],
    ] as const) {
      const token = start + body.repeat(16 * 1024 * 1024);
      const out = r.text(`x ${token}.${body.repeat(9)}.${body.repeat(9)} y`);
      expect(out.length).toBeLessThan(100);
      expect(out).toMatch(/^x \[REDACTED\]/);
    }
  });
});
