/**
 * What a tool's name says it does, read from its words (`nameWords`: casing and separators do not
 * matter). Only the verb counts: `get_merge_request` is a read although `merge` is a write verb, and
 * `slack_post_message` is a write although `slack` comes first. Verbs joined by `and`/`or`/`then`
 * all count, so `search_and_replace` and `get_or_create_user` are not reads.
 */
import { nameWords } from '../names.js';

export const READ_VERBS = new Set([
  'get',
  'list',
  'search',
  'read',
  'fetch',
  'query',
  'find',
  'describe',
  'show',
  'view',
  'lookup',
  'retrieve',
  'inspect',
]);

export const WRITE_VERBS = new Set([
  'create',
  'delete',
  'send',
  'update',
  'write',
  'post',
  'pay',
  'charge',
  'merge',
  'push',
  'remove',
  'add',
  'insert',
  'set',
  'put',
  'patch',
  'edit',
  'modify',
  'upload',
  'drop',
  'destroy',
  'erase',
  'purge',
  'truncate',
  'move',
  'rename',
  'submit',
  'publish',
  'transfer',
  'refund',
  'cancel',
  'approve',
  'close',
  'archive',
  'fork',
  'commit',
  'deploy',
  'install',
  'uninstall',
  'reset',
  'revoke',
  'grant',
  'invite',
  'store',
  'save',
  'upsert',
  'replace',
  'clear',
  'mark',
  'assign',
  'unassign',
  'subscribe',
  'unsubscribe',
  'enable',
  'disable',
  'toggle',
  'kill',
  'stop',
  'restart',
  'start',
  'reply',
  'comment',
  'react',
  'star',
  'unstar',
  'follow',
  'unfollow',
  'lock',
  'unlock',
  'block',
  'unblock',
  'ban',
  'schedule',
  'buy',
  'sell',
  'purchase',
  'withdraw',
  'deposit',
  'append',
  'import',
  'sync',
  'rotate',
  'apply',
]);

/**
 * Verbs whose effect depends on what they are told to do (`execute_sql`, `make_api_request`). They
 * end the search for a verb, so `run_query` is not taken for a read.
 */
export const DISPATCH_VERBS = new Set([
  'execute',
  'exec',
  'run',
  'invoke',
  'call',
  'eval',
  'evaluate',
  'dispatch',
  'perform',
  'make',
  'use',
  'send',
]);

/**
 * Verbs that are neither: they end the search too, so in `simulate_research_query` or
 * `validate_search_filter` the read word is taken for the noun it is.
 */
const OTHER_VERBS = new Set([
  'simulate',
  'generate',
  'calculate',
  'compute',
  'convert',
  'validate',
  'verify',
  'analyze',
  'analyse',
  'summarize',
  'summarise',
  'translate',
  'render',
  'format',
  'parse',
  'check',
  'test',
  'ping',
  'echo',
  'trigger',
  'sleep',
  'wait',
  'print',
  'preview',
  'estimate',
  'explain',
]);

const JOINERS = new Set(['and', 'or', 'then']);

/**
 * The verbs of a name: the first word that is a known verb (words before it are taken for a
 * server prefix, `github_` or `notion`), then any verb joined to it by `and`/`or`/`then`.
 */
export function nameVerbs(name: string): string[] {
  const words = nameWords(name);
  const isVerb = (w: string | undefined) =>
    !!w && (READ_VERBS.has(w) || WRITE_VERBS.has(w) || DISPATCH_VERBS.has(w) || OTHER_VERBS.has(w));
  const first = words.findIndex(isVerb);
  if (first < 0) return [];
  const verbs = [words[first]!];
  for (let i = first + 1; i < words.length - 1; i++) {
    if (JOINERS.has(words[i]!) && isVerb(words[i + 1])) verbs.push(words[++i]!);
  }
  return verbs;
}

/** Named like a read: every verb reads (`get_issue`, `notionGetPage`; not `fetch_and_store`). */
export function isReadNamed(name: string): boolean {
  const verbs = nameVerbs(name);
  return verbs.length > 0 && verbs.every((v) => READ_VERBS.has(v));
}

/** Named like a write: some verb writes (`create_issue`, `get_or_create_user`). */
export function writeVerb(name: string): string | undefined {
  return nameVerbs(name).find((v) => WRITE_VERBS.has(v));
}
