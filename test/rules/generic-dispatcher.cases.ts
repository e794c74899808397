import { hints, ruleCases } from '../helpers/rule-tester.js';

const annotations = hints(false, true, false);

export default ruleCases({
  valid: [
    { name: 'a verb with a specific object', input: { tools: [{ name: 'run_tests', annotations }] }, raises: [] },
    { name: 'a trade, not a statement', input: { tools: [{ name: 'execute_trade', annotations }] }, raises: [] },
  ],
  invalid: [
    {
      name: 'execute_sql, with the name as evidence',
      input: { tools: [{ name: 'execute_sql', annotations }] },
      raises: ['generic-dispatcher'],
      errors: [{ tool: 'execute_sql', severity: 'warning', evidence: 'name' }],
    },
    { name: 'a bare verb', input: { tools: [{ name: 'invoke', annotations }] }, errors: [{ tool: 'invoke' }] },
  ],
});
