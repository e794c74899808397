import { ruleCases } from '../helpers/rule-tester.js';

const tools = Array.from({ length: 100 }, (_, i) => ({
  name: `t${i}`,
  annotations: { readOnlyHint: true },
  description: 'x'.repeat(1_000),
}));

export default ruleCases({
  valid: [{ name: 'a hundred tools within 32 MiB', input: { tools }, raises: [] }],
  invalid: [
    {
      name: 'past maxServerBytes the listing stops, the tools before kept',
      input: { tools, limits: { maxServerBytes: 64 * 1024 } },
      raises: ['memory-budget'],
      errors: [
        {
          severity: 'warning',
          evidence: 'tools/list',
          message:
            'this server sent more than idemscan keeps of one server (0.1 MiB, maxServerBytes); stopped listing on page 1 after',
        },
      ],
    },
  ],
});
