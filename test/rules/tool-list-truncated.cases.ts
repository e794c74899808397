import { ruleCases } from '../helpers/rule-tester.js';

const tools = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `t${i}`, annotations: { readOnlyHint: true } }));

export default ruleCases({
  valid: [{ name: 'as many tools as kept', input: { tools: tools(2), limits: { maxTools: 2 } }, raises: [] }],
  invalid: [
    {
      name: 'one tool more than kept',
      input: { tools: tools(3), limits: { maxTools: 2 } },
      raises: ['tool-list-truncated'],
      errors: [{ severity: 'warning', evidence: 'tools/list', message: 'stopped at 2 tools' }],
    },
    {
      name: 'a next page when the bound is reached',
      input: { pages: [{ result: { tools: tools(2), nextCursor: 'c1' } }], limits: { maxTools: 2 } },
      errors: [{ message: 'stopped at 2 tools' }],
    },
  ],
});
