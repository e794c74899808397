import { describe, expect, it } from 'vitest';
import { classifyServer, classifyTool } from '../../src/classify/index.js';
import { summarize } from '../../src/model/summary.js';

const key = { type: 'object', properties: { idempotency_key: { type: 'string' } } };

describe('verdict precedence', () => {
  it('read-only wins over everything', () => {
    expect(classifyTool({ name: 'a', annotations: { readOnlyHint: true }, inputSchema: key }, true).verdict).toBe(
      'read-only',
    );
  });
  it('protocol-keyed when the server advertises tools.idempotency', () => {
    expect(classifyTool({ name: 'a', inputSchema: key }, true).verdict).toBe('protocol-keyed');
  });
  it('keyed on a strong key argument, before idempotentHint', () => {
    expect(classifyTool({ name: 'a', annotations: { idempotentHint: true }, inputSchema: key }, false).verdict).toBe(
      'keyed',
    );
  });
  it('idempotent on idempotentHint alone', () => {
    expect(classifyTool({ name: 'a', annotations: { idempotentHint: true } }, false).verdict).toBe('idempotent');
  });
  it('no annotations means the spec defaults: a destructive, non-idempotent write', () => {
    const t = classifyTool({ name: 'a' }, false);
    expect(t.verdict).toBe('unprotected');
    expect(t.effective).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
  });
  it('a string "true" is not a hint: the default applies and a finding says why', () => {
    const server = classifyServer({ name: 's', rawTools: [{ name: 'a', annotations: { readOnlyHint: 'true' } }] });
    expect(server.tools[0]!.verdict).toBe('unprotected');
    expect(server.tools[0]!.annotations).toEqual({ readOnlyHint: 'true' });
    expect(server.tools[0]!.findings.map((f) => f.rule)).toContain('malformed-hint');
  });
});

describe('summary', () => {
  it('counts verdicts so that they add up to the tools', () => {
    const c = classifyServer({
      name: 's',
      rawTools: [
        { name: 'r', annotations: { readOnlyHint: true } },
        { name: 'k', inputSchema: key },
        { name: 'i', annotations: { idempotentHint: true, readOnlyHint: false } },
        { name: 'u', annotations: { title: 'no hints' } },
      ],
    });
    const s = summarize([
      {
        name: 's',
        status: 'ok',
        target: { transport: 'stdio' },
        idempotencyCapability: false,
        durationMs: 1,
        tools: c.tools,
        findings: [],
      },
    ]);
    expect(s).toMatchObject({
      tools: 4,
      readOnly: 1,
      notReadOnly: 3,
      annotated: 2,
      keyed: 1,
      idempotent: 1,
      unprotected: 1,
      protocolKeyed: 0,
    });
  });
});
