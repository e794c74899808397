import type { ProbeOutcome, ToolProbe } from '../../src/model/probe-schema.js';
import { hints, ruleCases, schema } from '../helpers/rule-tester.js';

// What a probe saw: the rule reads the outcome and, for --auto, whether anything changed at all.
const saw = (outcome: ProbeOutcome, changed = true): ToolProbe => ({
  method: 'auto',
  outcome,
  key: null,
  evidence: {
    reason: 'seen',
    calls: [],
    requests: 0,
    durationMs: 0,
    changes: { call: changed ? ['home/a.txt: added (1 bytes)'] : [], reissue: [], ignored: [] },
  },
});
const tool = (name: string, annotations: Record<string, unknown>, inputSchema: unknown = schema('text')) => ({
  name,
  annotations,
  inputSchema,
});

export default ruleCases({
  valid: [
    {
      name: 'declared idempotent, and the re-issue changed nothing more',
      input: { tools: [tool('set_note', hints(false, false, true))], probes: { set_note: saw('retry-safe') } },
      raises: ['idempotent-hint-untrusted'],
    },
    {
      name: 'declares nothing and repeats its effect: the defaults say as much',
      input: { tools: [tool('add_row', hints(false, true, false))], probes: { add_row: saw('repeated-effect') } },
      raises: [],
    },
    {
      name: 'declared read-only, and nothing changed',
      input: {
        tools: [tool('get_note', hints(true, false, true))],
        probes: { get_note: saw('inconclusive', false) },
      },
      raises: [],
    },
    {
      name: 'the probe could not tell: nothing is judged',
      input: { tools: [tool('set_note', hints(false, false, true))], probes: { set_note: saw('failed') } },
      raises: ['idempotent-hint-untrusted'],
    },
    {
      name: 'a scan, no probe: never raised',
      input: { tools: [tool('get_note', hints(true, false, true))] },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'declared idempotent, yet the re-issue repeated the effect',
      input: { tools: [tool('append_log', hints(false, false, true))], probes: { append_log: saw('repeated-effect') } },
      raises: ['idempotent-hint-untrusted', 'hints-contradict-behaviour'],
      errors: [
        {
          tool: 'append_log',
          severity: 'error',
          evidence: 'probe: repeated-effect',
          message: 'declares idempotentHint: true or a key, yet the re-issue repeated its effect',
        },
      ],
    },
    {
      name: 'declared read-only, yet its call changed state',
      input: { tools: [tool('get_clock', hints(true, false, true))], probes: { get_clock: saw('retry-safe') } },
      errors: [{ severity: 'error', message: 'declares readOnlyHint: true, yet its call changed state' }],
    },
    {
      name: 'keyed, yet the re-issue with the same key repeated the effect',
      input: {
        tools: [tool('create_order', hints(false, false, false), schema('sku', 'idempotency_key'))],
        probes: { create_order: saw('repeated-effect') },
      },
      errors: [{ severity: 'error', message: 'declares idempotentHint: true or a key' }],
    },
    {
      name: 'declares nothing, yet the re-issue changed nothing more: info',
      input: { tools: [tool('put_file', hints(false, true, false))], probes: { put_file: saw('retry-safe') } },
      errors: [{ severity: 'info', message: 'declares no idempotency, yet the re-issue changed nothing more' }],
    },
    {
      name: 'declares nothing, and the re-issue was refused after one effect: info',
      input: { tools: [tool('move_file', hints(false, true, false))], probes: { move_file: saw('reissue-refused') } },
      errors: [{ severity: 'info', message: 'answered an error and did not repeat it' }],
    },
  ],
});
