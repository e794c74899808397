import { hints, ruleCases } from '../helpers/rule-tester.js';

const annotations = hints(false, false, false);

export default ruleCases({
  valid: [
    { name: '128 characters', input: { tools: [{ name: 'a'.repeat(128), annotations }] }, raises: [] },
    { name: 'dots, dashes and underscores', input: { tools: [{ name: 'ns.tool-name_2', annotations }] }, raises: [] },
  ],
  invalid: [
    {
      name: 'too long',
      input: { tools: [{ name: 'a'.repeat(129), annotations }] },
      raises: ['invalid-tool-name'],
      errors: [{ severity: 'warning', evidence: 'name', message: 'it is 129 characters long' }],
    },
    {
      name: 'empty',
      input: { tools: [{ name: '', annotations }] },
      raises: ['invalid-tool-name'],
      errors: [{ message: 'it is empty' }],
    },
    {
      name: 'characters outside A-Za-z0-9_.-, each named',
      input: { tools: [{ name: 'a|b <x>', annotations }] },
      errors: [{ message: '"|"' }],
    },
  ],
});
