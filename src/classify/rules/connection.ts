/**
 * Findings the connector emits while listing tools (src/connect/list.ts, observe.ts), and the
 * classifier's `schema-budget` (src/classify/index.ts). They are no rules to run, but every rule id
 * a report can contain is documented and known to `--fail-on`.
 */
import type { RuleInfo } from './types.js';

export const CONNECTION_FINDINGS: RuleInfo[] = [
  { id: 'malformed-tool-entry', severity: 'error', title: 'A tools/list entry is not an object or has no string name' },
  { id: 'stdout-noise', severity: 'warning', title: 'The server wrote lines to stdout that are not JSON-RPC' },
  { id: 'pagination-loop', severity: 'warning', title: 'tools/list returned a cursor it had already given' },
  { id: 'pagination-bound', severity: 'warning', title: 'tools/list had more pages than --max-pages' },
  { id: 'pagination-invalid-cursor', severity: 'warning', title: 'tools/list returned a nextCursor that is not a string' },
  { id: 'tool-list-truncated', severity: 'warning', title: 'The server listed more tools than idemscan keeps' },
  { id: 'tool-list-incomplete', severity: 'error', title: 'A later tools/list page failed; only the pages before it are reported' },
  { id: 'schema-budget', severity: 'warning', title: 'Input schemas too large or too deeply referenced to search for keys to the end' },
  { id: 'definition-unhashable', severity: 'warning', title: 'A tool definition holds what JSON cannot (e.g. a number too large to be finite), so it has no definitionHash' },
  { id: 'memory-budget', severity: 'warning', title: 'The server sent more than idemscan keeps of one server; the list or its texts are cut' },
];
