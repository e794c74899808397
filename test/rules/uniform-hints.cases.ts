import { hints, ruleCases } from '../helpers/rule-tester.js';

const same = hints(false, true, false);
const three = ['create_a', 'delete_b', 'send_c'].map((name) => ({ name, annotations: same }));

export default ruleCases({
  valid: [
    { name: 'two tools are not enough', input: { tools: three.slice(0, 2) }, raises: [] },
    {
      name: 'every tool read-only',
      input: { tools: ['a', 'b', 'c'].map((name) => ({ name, annotations: { readOnlyHint: true } })) },
      raises: [],
    },
    {
      name: 'no tool annotated',
      input: { tools: ['a', 'b', 'c'].map((name) => ({ name })) },
      raises: ['missing-annotations', 'missing-annotations', 'missing-annotations'],
    },
    {
      name: 'hints that differ',
      input: {
        tools: [
          { name: 'a', annotations: same },
          { name: 'b', annotations: same },
          { name: 'c', annotations: { ...same, openWorldHint: false } },
        ],
      },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'three or more tools with identical hints',
      input: { tools: three },
      raises: ['uniform-hints'],
      errors: [{ severity: 'info', evidence: 'annotations', message: 'all 3 tools carry the same hints' }],
    },
  ],
});
