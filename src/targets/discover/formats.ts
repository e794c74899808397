/** Readers for client files not shaped like `mcpServers`; a bad entry is skipped naming the file and field. */
import { z } from 'zod';
import { bounded } from '../../model/bounds.js';
import { envMap, headerMap, headerNames, launchText } from '../formats/fields.js';
import { unsetWords } from '../expand.js';
import { describeZodError, entryName, type FormatContext } from '../formats/format.js';
import { mcpServersFormat } from '../formats/mcp-servers.js';
import type { LoadedTargets } from '../types.js';
import { isObject } from '../../model/is-object.js';
import { addTarget, disabled, objectEntries, scalar, varName, type ClientEntry } from './launch.js';

type Reader = (doc: Record<string, unknown>, ctx: FormatContext) => LoadedTargets;
const empty = (): LoadedTargets => ({ targets: [], skipped: [] });
const oneOf = (e: { command?: unknown; url?: unknown }) => Boolean(e.command) !== Boolean(e.url);

/** The entry as its schema reads it, or undefined after a skip that names the field. */
function checked<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  at: string,
  name: string,
  ctx: FormatContext,
  out: LoadedTargets,
): T | undefined {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  out.skipped.push({ name, source: ctx.file, reason: describeZodError(at, parsed.error) });
  return undefined;
}

// Codex: https://github.com/openai/codex/blob/main/docs/config.md#mcp_servers
const CodexEntry = z
  .object({
    command: launchText.min(1).optional(),
    args: z.array(scalar).optional(),
    env: envMap(scalar).optional(),
    /** Names of variables passed through from Codex's own environment. */
    env_vars: z.array(varName).optional(),
    cwd: launchText.optional(),
    url: z.string().optional(),
    http_headers: headerMap.optional(),
    /** Header name -> the variable that holds its value. */
    env_http_headers: headerNames(varName).optional(),
    bearer_token_env_var: varName.optional(),
    enabled: z.boolean().optional(),
  })
  .refine(oneOf, { message: 'exactly one of "command" or "url" is required' });

export const readCodex: Reader = (doc, ctx) => {
  const out = empty();
  for (const [key, raw] of objectEntries(doc.mcp_servers)) {
    const at = `mcp_servers.${key}`;
    const name = entryName(key);
    const e = checked(CodexEntry, raw, at, name, ctx, out);
    if (!e) continue;
    if (e.enabled === false) {
      disabled(out, name, ctx, `${at}.enabled`);
      continue;
    }
    // A header whose variable is unset would be sent without its token: skip, naming the field.
    const unset = [
      ...(e.bearer_token_env_var ? [['bearer_token_env_var', e.bearer_token_env_var] as const] : []),
      ...Object.entries(e.env_http_headers ?? {}).map(([h, v]) => [`env_http_headers.${h}`, v] as const),
    ].find(([, v]) => !ctx.env[v]);
    if (unset) {
      const [field, variable] = unset;
      out.skipped.push({
        name,
        source: ctx.file,
        reason: `${at}.${field}: ${unsetWords(variable, variable, ctx)}`,
      });
      continue;
    }
    // Values named by variable are written as `${VAR}`, so expansion takes them and marks them secret.
    const env = Object.assign(Object.create(null) as Record<string, string>, e.env);
    for (const v of e.env_vars ?? []) env[v] = `\${${v}:-}`;
    const headers = Object.assign(Object.create(null) as Record<string, string>, e.http_headers);
    for (const [h, v] of Object.entries(e.env_http_headers ?? {})) headers[h] = `\${${v}}`;
    if (e.bearer_token_env_var) headers.Authorization = `Bearer \${${e.bearer_token_env_var}}`;
    const launch: ClientEntry = e.url
      ? { transport: 'http', url: e.url, headers }
      : { transport: 'stdio', command: e.command, args: e.args, env, cwd: e.cwd };
    addTarget(out, name, launch, ctx, at);
  }
  return out;
};

// Zed: https://zed.dev/docs/ai/mcp. Older settings nest the launch: `command: {path, args, env}`.
const ZedCommand = z.object({
  path: launchText.min(1),
  args: z.array(scalar).optional(),
  env: envMap(scalar).optional(),
});
const ZedEntry = z
  .object({
    source: z.string().optional(),
    enabled: z.boolean().optional(),
    command: z.union([launchText.min(1), ZedCommand]).optional(),
    args: z.array(scalar).optional(),
    env: envMap(scalar).optional(),
    url: z.string().optional(),
    headers: headerMap.optional(),
  })
  .refine(oneOf, { message: 'exactly one of "command" or "url" is required' });

export const readZed: Reader = (doc, ctx) => {
  const out = empty();
  for (const [key, raw] of objectEntries(doc.context_servers)) {
    const at = `context_servers.${key}`;
    const name = entryName(key);
    if (
      isObject(raw) &&
      (raw.source === 'extension' || (raw.command === undefined && raw.url === undefined && 'settings' in raw))
    ) {
      out.skipped.push({
        name,
        source: ctx.file,
        reason: `${at}: started by a Zed extension; its command is not in the settings`,
      });
      continue;
    }
    const e = checked(ZedEntry, raw, at, name, ctx, out);
    if (!e) continue;
    if (e.enabled === false) {
      disabled(out, name, ctx, `${at}.enabled`);
      continue;
    }
    const nested = typeof e.command === 'object' ? e.command : undefined;
    const launch: ClientEntry = e.url
      ? { transport: 'http', url: e.url, headers: e.headers }
      : {
          transport: 'stdio',
          command: nested ? nested.path : (e.command as string),
          args: nested ? nested.args : e.args,
          env: nested ? nested.env : e.env,
        };
    addTarget(out, name, launch, ctx, at);
  }
  return out;
};

// Continue: https://docs.continue.dev/reference#mcpservers (a list of named entries).
const ContinueEntry = z
  .object({
    name: z.string().min(1),
    type: z.enum(['stdio', 'sse', 'streamable-http']).optional(),
    command: launchText.min(1).optional(),
    args: z.array(scalar).optional(),
    env: envMap(scalar).optional(),
    cwd: launchText.optional(),
    url: z.string().optional(),
    requestOptions: z.object({ headers: headerMap.optional() }).optional(),
    disabled: z.boolean().optional(),
  })
  .refine(oneOf, { message: 'exactly one of "command" or "url" is required' });

/** A YAML `mcpServers` list; a Claude-style JSON block file (an `mcpServers` map) goes to that loader. */
export const readContinue: Reader = (doc, ctx) => {
  if (isObject(doc.mcpServers)) return mcpServersFormat.read(doc, ctx);
  const out = empty();
  if (!Array.isArray(doc.mcpServers)) return out;
  doc.mcpServers.forEach((raw, i) => {
    const at = `mcpServers[${i}]`;
    const name = isObject(raw) && typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : at;
    if (isObject(raw) && typeof raw.uses === 'string') {
      out.skipped.push({
        name,
        source: ctx.file,
        reason: `${at}.uses: a Continue Hub block; its launch is not in this file`,
      });
      return;
    }
    const e = checked(ContinueEntry, raw, at, name, ctx, out);
    if (!e) return;
    if (e.disabled) return disabled(out, name, ctx, `${at}.disabled`);
    const launch: ClientEntry = e.url
      ? { transport: e.type === 'sse' ? 'sse' : 'http', url: e.url, headers: e.requestOptions?.headers }
      : { transport: 'stdio', command: e.command, args: e.args, env: e.env, cwd: e.cwd };
    addTarget(out, name, launch, ctx, at);
  });
  return out;
};

// Fields are flat: goose's crates/goose/src/config/extensions.rs flattens ExtensionConfig into the entry.
const GooseEntry = z.object({
  type: z.string(),
  enabled: z.boolean().optional(),
  cmd: launchText.min(1).optional(),
  args: z.array(scalar).optional(),
  envs: envMap(scalar).optional(),
  /** Variables goose reads from its keyring or environment; passed through when set. */
  env_keys: z.array(varName).optional(),
  uri: z.string().optional(),
  headers: headerMap.optional(),
});
/** In-process extensions: nothing to start or reach, so nothing to scan. */
const GOOSE_BUILT_IN = new Set(['builtin', 'platform', 'frontend', 'inline_python']);

export const readGoose: Reader = (doc, ctx) => {
  const out = empty();
  for (const [key, raw] of objectEntries(doc.extensions)) {
    const at = `extensions.${key}`;
    const name = entryName(key);
    if (isObject(raw) && typeof raw.type === 'string' && GOOSE_BUILT_IN.has(raw.type)) continue;
    const e = checked(GooseEntry, raw, at, name, ctx, out);
    if (!e) continue;
    if (e.enabled === false) {
      disabled(out, name, ctx, `${at}.enabled`);
      continue;
    }
    const env = Object.assign(Object.create(null) as Record<string, string>, e.envs);
    for (const v of e.env_keys ?? []) env[v] ??= `\${${v}:-}`;
    let launch: ClientEntry;
    if (e.type === 'stdio' && e.cmd) launch = { transport: 'stdio', command: e.cmd, args: e.args, env };
    else if ((e.type === 'sse' || e.type === 'streamable_http') && e.uri) {
      launch = { transport: e.type === 'sse' ? 'sse' : 'http', url: e.uri, headers: e.headers };
    } else {
      const known = e.type === 'stdio' || e.type === 'sse' || e.type === 'streamable_http';
      const problem = !known
        ? 'is not one of stdio, sse, streamable_http'
        : e.type === 'stdio'
          ? 'needs "cmd"'
          : 'needs "uri"';
      out.skipped.push({ name, source: ctx.file, reason: `${at}.type: "${bounded(e.type, 40)}" ${problem}` });
      continue;
    }
    addTarget(out, name, launch, ctx, at, 'uri');
  }
  return out;
};

// V1 names servers directly under `mcp` (with `enabled`); V2 under `mcp.servers` (with `disabled`).
const OpenCodeEntry = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('local'),
    command: z
      .array(scalar)
      .min(1)
      .refine((c) => c[0] !== '', 'the first element is the command and cannot be empty'),
    environment: envMap(scalar).optional(),
    cwd: launchText.optional(),
    enabled: z.boolean().optional(),
    disabled: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('remote'),
    url: z.string(),
    headers: headerMap.optional(),
    enabled: z.boolean().optional(),
    disabled: z.boolean().optional(),
  }),
]);

export const readOpenCode: Reader = (doc, ctx) => {
  const out = empty();
  const mcp = isObject(doc.mcp) ? doc.mcp : undefined;
  const v2 = mcp && isObject(mcp.servers) && typeof mcp.servers.type !== 'string';
  const map = v2 ? mcp.servers : mcp;
  for (const [key, raw] of objectEntries(map)) {
    const at = `${v2 ? 'mcp.servers' : 'mcp'}.${key}`;
    const name = entryName(key);
    const e = checked(OpenCodeEntry, raw, at, name, ctx, out);
    if (!e) continue;
    if (e.enabled === false || e.disabled) {
      disabled(out, name, ctx, `${at}.${e.enabled === false ? 'enabled' : 'disabled'}`);
      continue;
    }
    const launch: ClientEntry =
      e.type === 'remote'
        ? { transport: 'http', url: e.url, headers: e.headers }
        : { transport: 'stdio', command: e.command[0], args: e.command.slice(1), env: e.environment, cwd: e.cwd };
    addTarget(out, name, launch, ctx, at);
  }
  return out;
};
