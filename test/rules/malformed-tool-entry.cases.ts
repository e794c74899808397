import { ruleCases } from '../helpers/rule-tester.js';

const ok = { name: 'ok', annotations: { readOnlyHint: true } };

export default ruleCases({
  valid: [
    { name: 'every entry an object with a string name', input: { tools: [ok, { ...ok, name: 'ok2' }] }, raises: [] },
  ],
  invalid: [
    {
      name: 'an entry without a name and one that is not an object are skipped, the rest kept',
      input: { tools: [ok, { description: 'no name' }, 'a string', { name: 7 }] },
      raises: ['malformed-tool-entry', 'malformed-tool-entry', 'malformed-tool-entry'],
      errors: [
        { severity: 'error', evidence: 'tools[1]', message: 'tools/list page 1, entry 1: no string "name"; skipped' },
        { evidence: 'tools[2]', message: 'entry 2: not an object' },
        { evidence: 'tools[3]', message: 'entry 3: no string "name"' },
      ],
    },
    {
      name: 'past 20 entries, one finding counts the rest',
      input: { tools: [ok, ...Array.from({ length: 25 }, () => null)] },
      errors: [
        ...Array.from({ length: 20 }, (_, i) => ({ evidence: `tools[${i + 1}]` })),
        { evidence: 'tools', message: '5 more malformed entries skipped (25 in all)' },
      ],
    },
  ],
});
