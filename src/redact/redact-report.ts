/**
 * The one redaction pass over a finished server report. Whatever the server said may repeat a
 * secret it was given (an error quoting its URL, a banner printing its key, a property named after
 * its token), so every string in the report passes through the target's redactor, at any depth,
 * and so does every key of what the server sent (annotations, capabilities, serverInfo).
 */
import type { Finding, ServerReport } from '../model/schema.js';
import type { Redactor } from './redact.js';

export function redactServer(server: ServerReport, redactor: Redactor): ServerReport {
  const fn = (text: string) => redactor.text(text);
  // The report's own structure keys ("name", "readOnly") are not server text; a secret that
  // happens to read "name" must not rename them.
  const values = <T>(v: T): T => redactDeep(v, fn, false);
  const all = <T>(v: T): T => redactDeep(v, fn, true);
  // `name` is the user's label for the target; `target` was described through the same redactor.
  const { name, target, serverInfo, capabilities, tools, ...rest } = server;
  const clean: ServerReport = {
    ...values(rest),
    name,
    target,
    ...(serverInfo === undefined ? {} : { serverInfo: all(serverInfo) }),
    ...(capabilities === undefined ? {} : { capabilities: all(capabilities) }),
    tools: tools.map(({ annotations, ...tool }) => ({
      ...values(tool),
      ...(annotations === undefined ? {} : { annotations: all(annotations) }),
    })),
  };
  return withOwnValues(clean, server);
}

/**
 * Puts back the values idemscan chose from a fixed set (the schema's enums): they are not server
 * text, and a secret that reads "read" must not turn a verdict into "[REDACTED]-only".
 */
function withOwnValues(clean: ServerReport, server: ServerReport): ServerReport {
  const findings = (out: Finding[], own: Finding[]) =>
    out.map((f, i) => ({ ...f, rule: own[i]!.rule, severity: own[i]!.severity }));
  return {
    ...clean,
    status: server.status,
    ...(clean.failure && server.failure ? { failure: { ...clean.failure, kind: server.failure.kind } } : {}),
    ...(clean.protocol && server.protocol ? { protocol: { ...clean.protocol, era: server.protocol.era } } : {}),
    findings: findings(clean.findings, server.findings),
    ...(clean.advice && server.advice ? { advice: { ...clean.advice, kind: server.advice.kind } } : {}),
    tools: clean.tools.map((tool, i) => {
      const own = server.tools[i]!;
      return {
        ...tool,
        effective: own.effective,
        verdict: own.verdict,
        // Hashes of what was received are idemscan's own values: a 4-digit secret must not blank part of one.
        ...(own.definitionHash === undefined
          ? {}
          : { definitionHash: own.definitionHash, fieldHashes: own.fieldHashes }),
        keyArguments: tool.keyArguments.map((k, j) => {
          const { confidence, reason } = own.keyArguments[j]!;
          return { ...k, confidence, ...(reason === undefined ? {} : { reason }) };
        }),
        findings: findings(tool.findings, own.findings),
      };
    }),
  };
}

/**
 * A copy of a JSON value with every string passed through `fn` (and every key, if `keys`). An
 * explicit stack instead of recursion: a server can nest 100,000 levels within one message, and
 * every level is redacted (a depth cut-off would hand back the deepest ones raw). Shared and
 * cyclic references are copied once.
 */
export function redactDeep<T>(value: T, fn: (text: string) => string, keys = true): T {
  if (typeof value === 'string') return fn(value) as T;
  if (!value || typeof value !== 'object') return value;
  const copies = new Map<object, object>();
  const stack: [object, object][] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return fn(v);
    if (!v || typeof v !== 'object') return v;
    let out = copies.get(v);
    if (!out) {
      out = Array.isArray(v) ? [] : {};
      copies.set(v, out);
      stack.push([v, out]);
    }
    return out;
  };
  const root = copy(value) as T;
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (const v of from) (to as unknown[]).push(copy(v));
      continue;
    }
    for (const [k, v] of Object.entries(from)) {
      const key = keys ? fn(k) : k;
      // Assigning "__proto__" would set the prototype: define it as the plain field it was.
      if (key === '__proto__')
        Object.defineProperty(to, key, { value: copy(v), enumerable: true, writable: true, configurable: true });
      else (to as Record<string, unknown>)[key] = copy(v);
    }
  }
  return root;
}
