// From the verdicts the report holds, never the classifier, and stored, so every reporter says the same.
import type { AdviceGroup, ServerAdvice } from './advice-schema.js';
import type { ServerReport, ToolReport } from './schema.js';
import { isAnnotated } from './verdicts.js';

export type { AdviceGroup, ServerAdvice } from './advice-schema.js';

/** Enough for "a, b, c, +9 more"; the count has them all. */
export const ADVICE_NAMES = 20;

/** The spec's defaults, not the author, made it a write. */
export function declaresNothing(t: Pick<ToolReport, 'verdict' | 'annotations'>): boolean {
  return t.verdict === 'unprotected' && !isAnnotated(t.annotations);
}

function group(tools: readonly ToolReport[]): AdviceGroup {
  return { count: tools.length, tools: tools.slice(0, ADVICE_NAMES).map((t) => t.name) };
}

function keyOf(t: ToolReport): ServerAdvice['withKey']['tools'][number] {
  if (t.verdict === 'protocol-keyed') return { tool: t.name, key: 'idempotencyKey', protocol: true };
  const k = t.keyArguments.find((a) => a.confidence === 'strong') ?? t.keyArguments[0];
  return { tool: t.name, key: k?.path ?? '' };
}

/** What all of them share, so the sentence holds past the names. */
function withKey(keyed: readonly ToolReport[]): ServerAdvice['withKey'] {
  const keys = keyed.map(keyOf);
  const all = { count: keyed.length, tools: keys.slice(0, ADVICE_NAMES) };
  if (keys.length === 0) return all;
  if (keys.every((k) => k.protocol)) return { ...all, allProtocol: true };
  const first = keys[0]!.key;
  return first !== '' && keys.every((k) => !k.protocol && k.key === first) ? { ...all, sameKey: first } : all;
}

export function serverAdvice(s: Pick<ServerReport, 'status' | 'tools' | 'trusted'>): ServerAdvice | undefined {
  if (s.status !== 'ok') return undefined;
  const of = (test: (t: ToolReport) => boolean) => s.tools.filter(test);
  const keyed = of((t) => t.verdict === 'keyed' || t.verdict === 'protocol-keyed');
  const advice: ServerAdvice = {
    kind: 'no-tools',
    retry: group(of((t) => t.verdict === 'read-only')),
    withKey: withKey(keyed),
    ifTrusted: group(of((t) => t.verdict === 'idempotent')),
    ask: group(of((t) => t.verdict === 'unprotected' && !declaresNothing(t))),
    undeclared: group(of(declaresNothing)),
  };
  return { ...advice, kind: kindOf(advice, s.tools.length, s.trusted === true) };
}

function kindOf(a: ServerAdvice, tools: number, trusted: boolean): ServerAdvice['kind'] {
  const unsafe = a.ask.count + a.undeclared.count;
  if (tools === 0) return 'no-tools';
  if (unsafe === tools) return 'ask-first';
  if (unsafe > 0) return 'mixed';
  if (a.ifTrusted.count > 0 && !trusted) return 'retry-if-trusted';
  return a.withKey.count > 0 ? 'retry-with-key' : 'retry-freely';
}
