/** Our own list format: `{ "servers": [ { "name", "command" | "url" | "npm" | "pypi" | "mcpb" | "oci", ... } ] }`. */
import type { z } from 'zod';
import { expandFields, ExpandError, unexpanded } from '../expand.js';
import { toTarget } from '../kind.js';
import { httpUrlProblem, OwnEntry, type LoadedTargets, type SkippedTarget, type Target } from '../types.js';
import { describeZodError, type FormatContext, type TargetFormat } from './format.js';

export const ownFormat: TargetFormat = {
  id: 'idemscan',
  detect: (doc) =>
    Array.isArray(doc.servers) && !doc.servers.some((s) => !!s && typeof s === 'object' && 'server' in s),
  read(doc, ctx) {
    const out: LoadedTargets = { targets: [], skipped: [] };
    const seen = new Set<string>();
    (doc.servers as unknown[]).forEach((raw, i) => {
      const at = `servers[${i}]`;
      const parsed = parseOwnEntry(raw, at, ctx);
      if ('skipped' in parsed) return void out.skipped.push(parsed.skipped);
      const { entry } = parsed;
      if (seen.has(entry.name)) {
        out.skipped.push({ name: entry.name, source: ctx.file, reason: `${at}.name: duplicate name "${entry.name}"` });
        return;
      }
      seen.add(entry.name);
      const read = ownEntryTarget(entry, at, ctx);
      if ('skipped' in read) out.skipped.push(read.skipped);
      else if (read.target.skip)
        out.skipped.push({ name: read.target.name, source: ctx.file, reason: read.target.skip });
      else out.targets.push(read.target);
    });
    return out;
  },
};

/** A checked entry of the list. */
export type OwnEntryValue = z.infer<typeof OwnEntry>;

/** One entry of the list checked (`at`: where it is, `servers[3]`), or why it is skipped. */
export function parseOwnEntry(
  raw: unknown,
  at: string,
  ctx: FormatContext,
): { entry: OwnEntryValue } | { skipped: SkippedTarget } {
  const parsed = OwnEntry.safeParse(raw);
  if (parsed.success) return { entry: parsed.data };
  return { skipped: { name: rawName(raw) ?? at, source: ctx.file, reason: describeZodError(at, parsed.error) } };
}

/**
 * A checked entry as a target: `${VAR}` expanded (ctx), its URL checked. Also the plan library's
 * reader (app/probe-library.ts), which hands it one entry.
 */
export function ownEntryTarget(
  checked: OwnEntryValue,
  at: string,
  ctx: FormatContext,
): { target: Target } | { skipped: SkippedTarget } {
  let entry = checked;
  let fromEnv: string[];
  try {
    ({ entry, fromEnv } = expandFields(entry, ctx, at));
  } catch (err) {
    if (!(err instanceof ExpandError)) throw err;
    return { skipped: { name: entry.name, source: ctx.file, reason: err.message, ...unexpanded(err) } };
  }
  const urlProblem = entry.url === undefined ? undefined : httpUrlProblem(entry.url);
  if (urlProblem) return { skipped: { name: entry.name, source: ctx.file, reason: `${at}.url: ${urlProblem}` } };
  return { target: entryTarget(entry, `${ctx.file}#${at}`, fromEnv) };
}

function entryTarget(entry: OwnEntryValue, source: string, fromEnv: string[]): Target {
  return toTarget({
    name: entry.name,
    source,
    transport: entry.transport ?? (entry.url ? 'http' : 'stdio'),
    command: entry.command,
    args: entry.args,
    env: entry.env,
    cwd: entry.cwd,
    url: entry.url,
    headers: entry.headers,
    npm: entry.npm,
    bin: entry.bin,
    pypi: entry.pypi,
    index: entry.index,
    mcpb: entry.mcpb ? { url: entry.mcpb, sha256: entry.sha256! } : undefined,
    oci: entry.oci,
    installScripts: entry.installScripts,
    timeoutMs: entry.timeout,
    skip: entry.skip,
    comment: entry.comment,
    downloads: entry.downloads,
    oauth: entry.oauth === true ? {} : entry.oauth && { clientId: entry.oauth.clientId, scopes: entry.oauth.scopes },
    secrets: fromEnv.length ? fromEnv : undefined,
  });
}

function rawName(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string') {
    return (raw as { name: string }).name;
  }
  return undefined;
}
