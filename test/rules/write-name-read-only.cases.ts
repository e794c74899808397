import { ruleCases, type InvalidCase, type RuleCase } from '../helpers/rule-tester.js';

const readOnly = (name: string) => ({ tools: [{ name, annotations: { readOnlyHint: true } }] });

/** A read-only write, also behind a prefix or a read verb with a joined write. */
const writes = ['delete_record', 'slack_post_message', 'get_or_create_user', 'createIssue'].map(
  (name): InvalidCase => ({
    name: `${name} marked read-only`,
    input: readOnly(name),
    errors: [{ severity: 'error', tool: name, evidence: 'annotations.readOnlyHint' }],
  }),
);

/** The write word is a noun after a read verb. */
const nouns = ['get_merge_request', 'get_post', 'get_charge', 'list_merge_requests'].map((name): RuleCase => ({
  name: `${name}: the write word is a noun`,
  input: readOnly(name),
  raises: [],
}));

export default ruleCases({ valid: nouns, invalid: writes });
