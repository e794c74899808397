/** What an `--auto` experiment of one tool will call (src/probe/auto/plan.ts): its arguments and its reads. */
import { describe, expect, it } from 'vitest';
import { planAuto } from '../../src/probe/auto/plan.js';

const str = { type: 'string' };
const tool = (name: string, annotations: Record<string, unknown> = {}, properties: Record<string, unknown> = {}) => ({
  name,
  annotations,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
});

describe('planAuto', () => {
  it('makes the arguments, puts the fresh key at the key argument, and picks up to three reads, declared ones first', () => {
    const tools = [
      tool('create_order', {}, { sku: str, idempotency_key: str }),
      tool('list_orders'),
      tool('get_status', { readOnlyHint: true }),
      tool('read_file', { readOnlyHint: true }, { path: { type: 'string', description: 'file to read' } }),
      tool('search_orders', {}, { query: str }),
      tool('count_orders', { readOnlyHint: true }),
    ];
    const plan = planAuto(tools, 'create_order', '/scratch/work', 'idemscan-auto-1');
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.experiment.arguments).toEqual({ sku: 'probe', idempotency_key: 'idemscan-auto-1' });
    expect(plan.experiment.keyLocations).toEqual(['$.idempotency_key']);
    expect(plan.candidates.map((r) => r.tool)).toEqual(['count_orders', 'get_status', 'read_file']);
    // The file read_file reads is made before the call, in a folder of the reads' own.
    expect(plan.inputs).toEqual([{ path: 'reads/probe-file-1.txt', content: expect.any(String) }]);
  });

  it('never observes a tool with itself, nor with a read that needs a key', () => {
    const tools = [tool('get_a', { readOnlyHint: true }), tool('get_b', { readOnlyHint: true }, { request_id: str })];
    const plan = planAuto(tools, 'get_a', '/w', 'k');
    expect(plan.ok && plan.candidates.map((r) => r.tool)).toEqual([]);
  });

  it('says why a tool is not probed: not listed again, or arguments that cannot be made', () => {
    expect(planAuto([], 'gone', '/w', 'k')).toEqual({ ok: false, reason: 'the server did not list it' });
    const bounded = tool('n', {}, { n: { type: 'integer', minimum: 10, maximum: 5 } });
    const plan = planAuto([bounded], 'n', '/w', 'k');
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.reason).toMatch(/^its arguments cannot be made from its schema: \$\.n: /);
  });
});
