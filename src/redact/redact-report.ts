// Every string and every server-sent key, at any depth. Redaction: docs/INTERNALS.md.
import type { Finding, ServerReport } from '../model/schema.js';
import type { Redactor } from './redact.js';

export function redactServer(server: ServerReport, redactor: Redactor): ServerReport {
  const fn = (text: string) => redactor.text(text);
  // A secret that reads "name" must not rename the report's own keys.
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

/** A secret that reads "read" must not turn a verdict into "[REDACTED]-only". */
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

/** An explicit stack: a server can nest 100,000 levels, and a depth cut-off would leave the deepest raw. */
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
