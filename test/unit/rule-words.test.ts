/**
 * The words the rules read: read and write verbs in names, dispatchers, descriptions that promise
 * deduplication. The rules themselves are tested from their fixtures (test/rules/, test/unit/rules.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { isDispatcherName } from '../../src/classify/rules/generic-dispatcher.js';
import { describesDeduplication } from '../../src/classify/rules/weak-key-only.js';
import { isReadNamed, writeVerb } from '../../src/classify/rules/words.js';
import { NOT_PROMISING, PROMISING } from '../rules/weak-key-only.cases.js';

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

describe('isDispatcherName', () => {
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
});

describe('describesDeduplication', () => {
  it.each(PROMISING)('counts a description that promises deduplication or a key: %s', (description) => {
    expect(describesDeduplication(description, true)).toBe(true);
  });
  it.each(NOT_PROMISING)('does not count a negation or a warning about duplicates: %s', (description) => {
    expect(describesDeduplication(description, false)).toBe(false);
  });
});
