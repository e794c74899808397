import { hints, ruleCases, type RuleCase } from '../helpers/rule-tester.js';

/** Compound writes and look-alike words are not reads. */
const notReads = ['search_and_replace', 'fetch_and_store', 'target', 'widget'].map((name): RuleCase => ({
  name: `${name} is not a read`,
  input: { tools: [{ name, annotations: hints(false, false, false) }] },
  raises: [],
}));

export default ruleCases({
  valid: [
    ...notReads,
    {
      name: 'a read marked read-only',
      input: { tools: [{ name: 'get_issue', annotations: { readOnlyHint: true } }] },
      raises: [],
    },
  ],
  invalid: [
    {
      name: 'a warning when readOnlyHint is absent',
      input: { tools: [{ name: 'github_get_issue', annotations: { openWorldHint: true } }] },
      errors: [
        {
          severity: 'warning',
          tool: 'github_get_issue',
          evidence: 'annotations.readOnlyHint',
          message: 'readOnlyHint is not given',
        },
      ],
    },
    {
      name: 'a note when the author set it false',
      input: { tools: [{ name: 'notionGetPage', annotations: { readOnlyHint: false } }] },
      errors: [{ severity: 'info', message: 'readOnlyHint is false' }],
    },
  ],
});
