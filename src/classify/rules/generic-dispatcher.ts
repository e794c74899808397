import { nameWords } from '../names.js';
import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';
import { DISPATCH_VERBS, READ_VERBS, WRITE_VERBS } from './words.js';

/** Objects that say nothing about the effect: `execute_sql`, `call_endpoint`, `use_mcp_tool`. */
const GENERIC = new Set([
  'sql',
  'query',
  'statement',
  'command',
  'commands',
  'cmd',
  'shell',
  'bash',
  'terminal',
  'script',
  'code',
  'javascript',
  'js',
  'python',
  'expression',
  'request',
  'api',
  'http',
  'rest',
  'graphql',
  'rpc',
  'endpoint',
  'action',
  'operation',
  'function',
  'method',
  'procedure',
  'lambda',
  'tool',
  'mcp',
  'raw',
  'arbitrary',
  'custom',
  'generic',
  'any',
  'a',
  'an',
  'the',
  'in',
  'remote',
]);
/** Verbs that are a dispatcher on their own: `execute`, `puppeteer_evaluate`. */
const BARE = new Set(['execute', 'exec', 'run', 'invoke', 'call', 'eval', 'evaluate', 'dispatch']);
/** Names without a verb that still run anything: `sql`, `http_request`. */
const NOUNS = new Set(['sql', 'shell', 'bash', 'graphql', 'http', 'request', 'command', 'cmd', 'script']);

/** Where a call happens rather than what it does: `browser_evaluate` is still a dispatcher. */
const CONTEXT = new Set(['browser', 'page', 'tab', 'frame', 'node', 'server', 'remote']);

/** `serverName` tells a prefix from an object: `workflow_execute` runs one named kind of thing. */
export function isDispatcherName(name: string, serverName = ''): boolean {
  const words = nameWords(name);
  const generic = (from: number) => words.slice(from).every((w) => GENERIC.has(w));
  const at = words.findIndex((w) => DISPATCH_VERBS.has(w) || READ_VERBS.has(w) || WRITE_VERBS.has(w));
  if (at < 0) return words.length > 0 && generic(0) && words.some((w) => NOUNS.has(w));
  if (!DISPATCH_VERBS.has(words[at]!)) return false;
  if (at < words.length - 1) return generic(at + 1);
  if (!BARE.has(words[at]!)) return false;
  const prefix = new Set(nameWords(serverName));
  return words.slice(0, at).every((w) => prefix.has(w) || GENERIC.has(w) || CONTEXT.has(w));
}

/** No single verdict can describe every call. */
export const genericDispatcher: ToolRule = {
  id: RULE.genericDispatcher,
  check: ({ tool, raw, server }) => {
    if (!isDispatcherName(String(raw.name), server.name)) return [];
    return [
      {
        message: `runs whatever its arguments say, so its hints and its verdict (${tool.verdict}) hold for some calls and not others; split it into tools that each do one thing, or annotate it for the most dangerous call`,
        evidence: 'name',
      },
    ];
  },
};
