/** `mcpServers` files (Claude, Cursor, Windsurf) and VS Code's `servers`: they differ in a few field names. */
import { z } from 'zod';
import { expandFields, ExpandError, unexpanded } from '../expand.js';
import { toTarget } from '../kind.js';
import { httpUrlProblem, type LoadedTargets, type Target } from '../types.js';
import { envMap, headerMap, launchText } from './fields.js';
import { describeZodError, entryName, type FormatContext, type TargetFormat } from './format.js';

/** Hand-written configs say `"DEBUG": true` or `"args": ["--port", 8080]`; clients pass them as text. */
const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String).pipe(launchText);
const transports = z.enum(['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp']);

const Entry = z
  .object({
    type: transports.optional(),
    transport: transports.optional(),
    transportType: transports.optional(), // Cline
    command: launchText.min(1).optional(),
    args: z.array(scalar).optional(),
    env: envMap(scalar).optional(),
    cwd: launchText.optional(),
    url: z.string().optional(),
    serverUrl: z.string().optional(), // Windsurf
    httpUrl: z.string().optional(), // Gemini CLI: Streamable HTTP (its `url` means SSE)
    headers: headerMap.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((e) => Boolean(e.command) !== Boolean(e.url ?? e.serverUrl ?? e.httpUrl), {
    message: 'exactly one of "command" or "url"/"serverUrl"/"httpUrl" is required',
  });

function readMap(map: Record<string, unknown>, key: 'mcpServers' | 'servers', ctx: FormatContext): LoadedTargets {
  const out: LoadedTargets = { targets: [], skipped: [] };
  for (const [rawName, raw] of Object.entries(map)) {
    const name = entryName(rawName);
    const at = `${key}.${rawName}`;
    const parsed = Entry.safeParse(raw);
    if (!parsed.success) {
      out.skipped.push({ name, source: ctx.file, reason: describeZodError(at, parsed.error) });
      continue;
    }
    if (parsed.data.disabled) {
      out.skipped.push({ name, source: ctx.file, reason: `${at}.disabled: the entry is disabled` });
      continue;
    }
    let entry;
    let fromEnv: string[];
    try {
      ({ entry, fromEnv } = expandFields(parsed.data, ctx, at));
    } catch (err) {
      if (!(err instanceof ExpandError)) throw err;
      out.skipped.push({ name, source: ctx.file, reason: err.message, ...unexpanded(err) });
      continue;
    }
    const url = entry.httpUrl ?? entry.url ?? entry.serverUrl;
    const urlProblem = url === undefined ? undefined : httpUrlProblem(url);
    if (urlProblem) {
      const field = entry.httpUrl !== undefined ? 'httpUrl' : entry.url !== undefined ? 'url' : 'serverUrl';
      out.skipped.push({ name, source: ctx.file, reason: `${at}.${field}: ${urlProblem}` });
      continue;
    }
    const declared = entry.type ?? entry.transport ?? entry.transportType;
    const target: Target = toTarget({
      name,
      source: `${ctx.file}#${at}`,
      transport: url ? (declared === 'sse' ? 'sse' : 'http') : 'stdio',
      command: entry.command,
      args: entry.args,
      env: entry.env,
      cwd: entry.cwd,
      url,
      headers: entry.headers,
      secrets: fromEnv.length ? fromEnv : undefined,
    });
    out.targets.push(target);
  }
  return out;
}

function objectAt(doc: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = doc[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export const mcpServersFormat: TargetFormat = {
  id: 'mcpServers',
  detect: (doc) => objectAt(doc, 'mcpServers') !== undefined,
  read: (doc, ctx) => readMap(objectAt(doc, 'mcpServers') ?? {}, 'mcpServers', ctx),
};

export const vscodeFormat: TargetFormat = {
  id: 'vscode',
  detect: (doc) => objectAt(doc, 'servers') !== undefined,
  read: (doc, ctx) => readMap(objectAt(doc, 'servers') ?? {}, 'servers', ctx),
};
