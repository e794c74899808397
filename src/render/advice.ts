/** The per-server answer in words, read from the report's `advice`; every name through the format's escaper. */
import type { AdviceGroup, ServerAdvice } from '../model/advice.js';
import type { ServerReport } from '../model/schema.js';
import { serverVersion } from '../model/package-spec.js';

/** How a format shows a server's text: a tool name, a key path (as code), and how many names a group shows. */
export interface AdviceWords {
  name(text: string): string;
  code(text: string): string;
  names: number;
}

/** `a, b, c, +9 more`: the group's first names, then how many are not shown (the count has them all). */
function list(names: readonly string[], count: number, w: AdviceWords): string {
  const shown = names.slice(0, w.names).map((n) => w.name(n));
  const more = count - shown.length;
  return [...shown, ...(more > 0 ? [`+${more.toLocaleString('en-US')} more`] : [])].join(', ');
}

const they = (n: number, one: string, many: string) => (n === 1 ? one : many);

function reads(a: ServerAdvice, tools: number): string[] {
  if (a.retry.count === 0) return [];
  if (a.retry.count === tools)
    return [tools === 1 ? 'retry freely: its one tool is read-only' : 'retry freely: every tool is read-only'];
  return [`retry the ${a.retry.count === 1 ? 'read' : `${a.retry.count.toLocaleString('en-US')} reads`}`];
}

function keyed(a: ServerAdvice, w: AdviceWords): string[] {
  const k = a.withKey;
  if (k.count === 0) return [];
  if (k.allProtocol)
    return [
      `retry ${list(
        k.tools.map((t) => t.tool),
        k.count,
        w,
      )} with the same ${w.code('idempotencyKey')}`,
    ];
  if (k.sameKey !== undefined)
    return [
      `retry ${list(
        k.tools.map((t) => t.tool),
        k.count,
        w,
      )} with the same key (${w.code(k.sameKey)})`,
    ];
  const each = k.tools
    .slice(0, w.names)
    .map((t) => `${w.name(t.tool)}${t.protocol || t.key ? ` (${w.code(t.protocol ? 'idempotencyKey' : t.key)})` : ''}`);
  const more = k.count - each.length;
  return [
    `retry with the same key: ${[...each, ...(more > 0 ? [`+${more.toLocaleString('en-US')} more`] : [])].join(', ')}`,
  ];
}

function trusted(a: ServerAdvice, isTrusted: boolean, w: AdviceWords): string[] {
  const g = a.ifTrusted;
  if (g.count === 0) return [];
  const names = list(g.tools, g.count, w);
  return [
    isTrusted ? `retry ${names} (idempotentHint, a trusted server)` : `retry ${names} only if you trust the server`,
  ];
}

function ask(a: ServerAdvice, w: AdviceWords): string[] {
  const out = a.ask.count > 0 ? [`ask before ${list(a.ask.tools, a.ask.count, w)}`] : [];
  const u: AdviceGroup = a.undeclared;
  if (u.count === 0) return out;
  return [...out, `ask before ${list(u.tools, u.count, w)}${a.ask.count > 0 ? ' too' : ''} (no hints declared)`];
}

/** The answer's phrases for a scanned server, in the order a client acts on them; empty without `advice`. */
export function advicePhrases(s: Pick<ServerReport, 'advice' | 'tools' | 'trusted'>, w: AdviceWords): string[] {
  const a = s.advice;
  if (!a) return [];
  if (a.kind === 'no-tools') return ['it lists no tools'];
  return [...reads(a, s.tools.length), ...keyed(a, w), ...trusted(a, s.trusted === true, w), ...ask(a, w)];
}

/** What the answer's head says of a server besides its name: the version scanned and the clients that list it. */
export interface AnswerMeta {
  /** `serverVersion` (what the dataset and server pages show), else `serverInfo.version`. */
  version?: string;
  /** What the server says of itself (`serverInfo.version`) when that is another version. */
  reports?: string;
  /** The package as the client config wrote it, when idemscan resolved its version (`pkg@latest`, `pkg`). */
  resolvedFrom?: string;
  /** The clients whose config lists it (`scan --discover`), each once. */
  clients: string[];
}

export function answerMeta(s: Pick<ServerReport, 'serverInfo' | 'target'>): AnswerMeta {
  const npm = s.target.npm;
  const { version } = serverVersion(s);
  const told = s.serverInfo?.version;
  const launcher = s.target.launcher;
  const clients = [...new Set((s.target.listedBy ?? []).map((l) => l.client))];
  return {
    ...(version ? { version } : {}),
    ...(told && told !== version ? { reports: told } : {}),
    ...(launcher?.resolved && npm ? { resolvedFrom: launcher.spec } : {}),
    clients,
  };
}

/** What follows the server's name (version, resolution, listing clients), escaped by `w`; '' when nothing. */
export function metaText(m: AnswerMeta, w: Pick<AdviceWords, 'name'>): string {
  // The version is the package's, so only the entry it was resolved for and a differing self-report are added.
  const notes = [
    ...(m.resolvedFrom ? [`resolved for ${w.name(m.resolvedFrom)}`] : []),
    ...(m.reports ? [`the server reports ${w.name(m.reports)}`] : []),
  ];
  const version = m.version ? ` ${w.name(m.version)}${notes.length ? ` (${notes.join('; ')})` : ''}` : '';
  const listed = m.clients.length ? `, listed by ${m.clients.map((c) => w.name(c)).join(', ')}` : '';
  return version + listed;
}

/** The answer for a server that failed: nothing is known of its tools, so nothing may be retried on its word. */
export function failedAnswer(s: Pick<ServerReport, 'failure'>): string {
  return `not scanned (${s.failure?.kind ?? 'failed'}): nothing is known of its tools`;
}

/** Told apart so a search tool without annotations does not read as a declared destructive write. */
export function undeclaredWords(undeclared: number, unprotected: number): string {
  const declared = unprotected - undeclared;
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `Of these, ${n(declared)} declare${they(declared, 's', '')} a write and ${n(undeclared)} declare${they(undeclared, 's', '')} no hints at all ` +
    `(the spec's defaults make ${they(undeclared, 'it a write', 'them writes')})`
  );
}
