// Only the verb counts: `get_merge_request` is a read; joined verbs all count (`get_or_create_user`).
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

/** Their effect depends on what they are told (`execute_sql`); they end the search, so `run_query` is no read. */
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

/** They end the search too, so in `validate_search_filter` the read word is a noun. */
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

/** Words before the first verb are taken for a server prefix (`github_`). */
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

export function isReadNamed(name: string): boolean {
  const verbs = nameVerbs(name);
  return verbs.length > 0 && verbs.every((v) => READ_VERBS.has(v));
}

export function writeVerb(name: string): string | undefined {
  return nameVerbs(name).find((v) => WRITE_VERBS.has(v));
}
