import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyServer, type ClassifyInput } from '../../src/classify/index.js';
import { CATALOGUE } from '../../src/model/catalogue.js';
import { RULES } from '../../src/classify/rules/index.js';
import { isDispatcherName } from '../../src/classify/rules/generic-dispatcher.js';
import { describesDeduplication } from '../../src/classify/rules/weak-key-only.js';
import { isReadNamed, writeVerb } from '../../src/classify/rules/words.js';
import type { Finding } from '../../src/model/schema.js';

type Raw = Record<string, unknown>;
const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean) => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
});
const schema = (...props: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
});

function findings(rawTools: Raw[], more: Partial<ClassifyInput> = {}): Finding[] {
  const c = classifyServer({ name: 's', rawTools, ...more });
  return [...c.tools.flatMap((t) => t.findings), ...c.findings];
}
/** The rule ids one tool gets. */
const rulesOf = (raw: Raw, more: Partial<ClassifyInput> = {}) => findings([raw], more).map((f) => f.rule);
const only = (id: string, raw: Raw, more: Partial<ClassifyInput> = {}) =>
  findings([raw], more).filter((f) => f.rule === id);

describe('name words', () => {
  it.each([
    'get_issue',
    'getIssue',
    'github_get_issue',
    'GetIssue',
    'notionGetPage',
    'list-repos',
    'searchFiles',
    'slack_list_channels',
    'query',
    'describe_table',
    'find',
  ])('%s is named like a read', (name) => expect(isReadNamed(name)).toBe(true));
  it.each([
    'target',
    'widget',
    'retarget_widget',
    'budget_report',
    'search_and_replace',
    'read_and_delete',
    'fetch_and_store',
    'get_or_create_user',
    'mark_as_read',
    'run_query',
    'echo',
    'simulate-research-query',
    'validate_search_filter',
  ])('%s is not named like a read', (name) => expect(isReadNamed(name)).toBe(false));
  it.each([
    ['create_issue', 'create'],
    ['slack_post_message', 'post'],
    ['sendEmail', 'send'],
    ['search_and_replace', 'replace'],
    ['get_or_create_user', 'create'],
    ['mark_as_read', 'mark'],
  ])('%s is named like a write (%s)', (name, verb) => expect(writeVerb(name)).toBe(verb));
  it.each([
    'get_merge_request',
    'list_merge_requests',
    'get_post',
    'get_charge',
    'get_push_status',
    'list_deleted_items',
    'get_settings',
    'charger_status',
  ])('%s is not named like a write (the verb is a read; the noun does not count)', (name) =>
    expect(writeVerb(name)).toBeUndefined(),
  );
});

describe('missing-annotations', () => {
  it('fires on a tool without hints, also when it only has a title', () => {
    expect(rulesOf({ name: 'create_widget' })).toEqual(['missing-annotations']);
    expect(rulesOf({ name: 'frob', annotations: { title: 'Frob' } })).toEqual(['missing-annotations']);
  });
  it('leaves read-named tools to read-name-not-read-only and malformed hints to malformed-hint', () => {
    expect(rulesOf({ name: 'get_issue' })).toEqual(['read-name-not-read-only']);
    expect(rulesOf({ name: 'frob', annotations: { readOnlyHint: 'true' } })).toEqual(['malformed-hint']);
  });
  it('does not fire once any hint is given', () => {
    expect(rulesOf({ name: 'frob', annotations: { destructiveHint: false } })).toEqual([]);
  });
});

describe('read-name-not-read-only', () => {
  it('warns when readOnlyHint is absent, notes it when the author set it false', () => {
    expect(
      only('read-name-not-read-only', { name: 'github_get_issue', annotations: { openWorldHint: true } })[0],
    ).toMatchObject({ severity: 'warning', tool: 'github_get_issue', evidence: 'annotations.readOnlyHint' });
    expect(
      only('read-name-not-read-only', { name: 'notionGetPage', annotations: { readOnlyHint: false } })[0]?.severity,
    ).toBe('info');
  });
  it('does not fire on read-only tools, compound writes or look-alike words', () => {
    for (const name of ['search_and_replace', 'fetch_and_store', 'target', 'widget'])
      expect(rulesOf({ name, annotations: hints(false, false, false) })).toEqual([]);
    expect(rulesOf({ name: 'get_issue', annotations: { readOnlyHint: true } })).toEqual([]);
  });
});

describe('write-name-read-only', () => {
  it('is an error on a read-only write, also behind a prefix or a read verb with a joined write', () => {
    for (const name of ['delete_record', 'slack_post_message', 'get_or_create_user', 'createIssue']) {
      expect(only('write-name-read-only', { name, annotations: { readOnlyHint: true } })[0]?.severity).toBe('error');
    }
  });
  it('does not fire when the write word is a noun after a read verb', () => {
    for (const name of ['get_merge_request', 'get_post', 'get_charge', 'list_merge_requests'])
      expect(rulesOf({ name, annotations: { readOnlyHint: true } })).toEqual([]);
  });
});

describe('contradictory-hints', () => {
  it('warns on destructiveHint: true and notes idempotentHint: false on a read-only tool', () => {
    const got = only('contradictory-hints', { name: 'stats', annotations: hints(true, true, false) });
    expect(got.map((f) => [f.severity, f.evidence])).toEqual([
      ['warning', 'annotations.destructiveHint'],
      ['info', 'annotations.idempotentHint'],
    ]);
  });
  it('accepts hints that agree with a read, and says nothing about writes', () => {
    expect(rulesOf({ name: 'stats', annotations: { ...hints(true, false, true), openWorldHint: false } })).toEqual([]);
    expect(rulesOf({ name: 'frob', annotations: hints(false, true, false) })).toEqual([]);
  });
});

describe('trust and idempotentHint', () => {
  const tool = { name: 'set_status', annotations: hints(false, false, true) };
  it('idempotent-hint-untrusted fires unless the server is trusted', () => {
    expect(rulesOf(tool)).toEqual(['idempotent-hint-untrusted']);
    expect(rulesOf(tool, { trusted: true })).toEqual([]);
  });
  it('does not fire when a key or the capability makes the tool keyed', () => {
    expect(rulesOf({ ...tool, inputSchema: schema('idempotency_key') })).toEqual([]);
    expect(rulesOf(tool, { capabilities: { tools: { idempotency: {} } } })).toEqual(['idempotency-capability']);
  });
});

describe('destructive-idempotent-unkeyed', () => {
  it('is info on an overwrite, a warning on a verb that adds something on every call, also when trusted', () => {
    expect(
      only('destructive-idempotent-unkeyed', { name: 'write_file', annotations: hints(false, true, true) })[0]
        ?.severity,
    ).toBe('info');
    expect(
      only(
        'destructive-idempotent-unkeyed',
        { name: 'charge_card', annotations: { idempotentHint: true } },
        { trusted: true },
      )[0]?.severity,
    ).toBe('warning');
  });
  it('does not fire on non-destructive or keyed tools', () => {
    expect(
      only('destructive-idempotent-unkeyed', { name: 'create_directory', annotations: hints(false, false, true) }),
    ).toEqual([]);
    expect(
      only('destructive-idempotent-unkeyed', {
        name: 'write_file',
        annotations: hints(false, true, true),
        inputSchema: schema('clientToken'),
      }),
    ).toEqual([]);
  });
});

describe('weak-key-only', () => {
  const annotations = hints(false, false, false);
  it('fires on weak key names with their paths, and on a description that promises deduplication', () => {
    expect(
      only('weak-key-only', { name: 'submit_order', annotations, inputSchema: schema('item', 'request_id') })[0]
        ?.evidence,
    ).toBe('$.request_id');
    expect(only('weak-key-only', { name: 'mint', annotations, inputSchema: schema('nonce') })[0]?.evidence).toBe(
      '$.nonce',
    );
    expect(
      only('weak-key-only', { name: 'bet', annotations, description: 'Retries with the same bet are idempotent.' })[0]
        ?.evidence,
    ).toBe('description');
  });
  it('does not fire on "not idempotent", on a strong key, or on a read', () => {
    expect(rulesOf({ name: 'bet', annotations, description: 'This tool is NOT idempotent.' })).toEqual([]);
    expect(rulesOf({ name: 'order', annotations, inputSchema: schema('request_id', 'idempotency_key') })).toEqual([]);
    expect(rulesOf({ name: 'lookup', annotations: { readOnlyHint: true }, inputSchema: schema('request_id') })).toEqual(
      [],
    );
  });
  it.each([
    'Retried requests are deduplicated.',
    'Pass the same Idempotency-Key header value to retry safely.',
    'Duplicate orders are rejected.',
    'Prevents duplicate charges when a request is retried.',
    'Not cached: calls with one request id are de-duplicated for 24 hours.',
  ])('counts a description that promises deduplication or a key: %s', (description) => {
    expect(only('weak-key-only', { name: 'place_order', annotations, description })[0]?.evidence).toBe('description');
    expect(describesDeduplication(description, true)).toBe(true);
  });
  it.each([
    'This tool is not idempotent.',
    "Charges the card. This call isn't idempotent.",
    'A non-idempotent write.',
    'Non idempotent: every call creates a new order.',
    'Duplicate requests create duplicate orders.',
    'Duplicate submissions are not rejected.',
    'Requests are never deduplicated.',
    'No deduplication is done: retry with care.',
    'The operation is not guaranteed to be idempotent.',
    "Doesn't dedupe retries.",
  ])('does not count a negation or a warning about duplicates: %s', (description) => {
    expect(rulesOf({ name: 'place_order', annotations, description })).toEqual([]);
    expect(describesDeduplication(description, false)).toBe(false);
  });
  it('does not count a description that only calls a tool idempotent that says so in its idempotentHint', () => {
    const description = 'Idempotent: calling it twice has the same effect.';
    expect(only('weak-key-only', { name: 'set_config', annotations: hints(false, true, true), description })).toEqual(
      [],
    );
    expect(
      only('weak-key-only', {
        name: 'set_config',
        annotations: hints(false, true, true),
        description: 'Idempotent: retries are deduplicated.',
      }),
    ).toHaveLength(1);
    expect(only('weak-key-only', { name: 'set_config', annotations, description })).toHaveLength(1);
  });
});

describe('generic-dispatcher', () => {
  it.each([
    'execute_sql',
    'run_command',
    'make_api_request',
    'call_endpoint',
    'run_query',
    'execute',
    'invoke',
    'puppeteer_evaluate',
    'github_execute_graphql_query',
    'use_mcp_tool',
    'http_request',
    'sql',
    'runShellCommand',
  ])('%s is a dispatcher', (name) => expect(isDispatcherName(name, 'puppeteer')).toBe(true));
  it('tells a server prefix from the object of the verb', () => {
    expect(isDispatcherName('browser_evaluate', 'playwright')).toBe(true);
    expect(isDispatcherName('workflow_execute', 'cloudflare')).toBe(false);
    expect(isDispatcherName('firecrawl_monitor_run', 'firecrawl')).toBe(false);
  });
  it.each([
    'run_tests',
    'execute_trade',
    'call_user',
    'make_payment',
    'send_email',
    'query',
    'search',
    'get_command_history',
    'trigger-long-running-operation',
    'executor_status',
  ])('%s is not', (name) => expect(isDispatcherName(name)).toBe(false));
  it('reports the name as evidence', () => {
    expect(
      only('generic-dispatcher', { name: 'execute_sql', annotations: hints(false, true, false) })[0],
    ).toMatchObject({ severity: 'warning', evidence: 'name' });
  });
});

describe('tool names', () => {
  it('invalid-tool-name: too long, empty, or characters outside A-Za-z0-9_.-', () => {
    const annotations = hints(false, false, false);
    expect(rulesOf({ name: 'a'.repeat(129), annotations })).toEqual(['invalid-tool-name']);
    expect(rulesOf({ name: '', annotations })).toEqual(['invalid-tool-name']);
    expect(only('invalid-tool-name', { name: 'a|b <x>', annotations })[0]?.message).toContain('"|"');
    expect(rulesOf({ name: 'a'.repeat(128), annotations })).toEqual([]);
    expect(rulesOf({ name: 'ns.tool-name_2', annotations })).toEqual([]);
  });
  it('duplicate-tool-name: once per name, with the entries and differing verdicts', () => {
    const got = findings([
      { name: 'dup', annotations: hints(true, false, true) },
      { name: 'other', annotations: hints(true, false, true) },
      { name: 'dup', annotations: hints(false, true, false) },
    ]).filter((f) => f.rule === 'duplicate-tool-name');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ tool: 'dup', severity: 'error', evidence: 'tools[0], tools[2]' });
    expect(got[0]!.message).toContain('read-only, unprotected');
  });
});

describe('server rules', () => {
  const same = hints(false, true, false);
  it('uniform-hints: three or more tools with identical hints', () => {
    const tools = ['create_a', 'delete_b', 'send_c'].map((name) => ({ name, annotations: same }));
    expect(findings(tools).map((f) => f.rule)).toEqual(['uniform-hints']);
    expect(findings(tools.slice(0, 2))).toEqual([]);
  });
  it('uniform-hints: not when every tool is read-only, unannotated, or the hints differ', () => {
    expect(findings(['a', 'b', 'c'].map((name) => ({ name, annotations: { readOnlyHint: true } })))).toEqual([]);
    expect(findings(['a', 'b', 'c'].map((name) => ({ name }))).map((f) => f.rule)).toEqual([
      'missing-annotations',
      'missing-annotations',
      'missing-annotations',
    ]);
    expect(
      findings([
        { name: 'a', annotations: same },
        { name: 'b', annotations: same },
        { name: 'c', annotations: { ...same, openWorldHint: false } },
      ]),
    ).toEqual([]);
  });
  it('idempotency-capability: info, on the capability', () => {
    expect(findings([], { capabilities: { tools: { idempotency: {} } } })).toEqual([
      expect.objectContaining({
        rule: 'idempotency-capability',
        severity: 'info',
        evidence: 'capabilities.tools.idempotency',
      }),
    ]);
  });
});

describe('catalogue', () => {
  it('has unique ids, each with a page under docs/rules listed in docs/rules/README.md', () => {
    const ids = CATALOGUE.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const index = readFileSync(new URL('../../docs/rules/README.md', import.meta.url), 'utf8');
    for (const r of CATALOGUE) {
      expect(existsSync(new URL(`../../docs/rules/${r.id}.md`, import.meta.url)), r.id).toBe(true);
      expect(index).toContain(`[${r.id}](${r.id}.md)`);
    }
  });
  it('lists every rule that runs', () => {
    expect(RULES.every((r) => CATALOGUE.some((c) => c.id === r.id))).toBe(true);
  });
});
