/** Our own list format: `{ "servers": [ { "name", "command" | "url" | "npm" | "pypi" | "mcpb" | "oci", ... } ] }`. */
import type { z } from 'zod';
import { targetProblems, type TargetProblem } from '../check.js';
import { expandFields, ExpandError, unexpanded } from '../expand.js';
import { toTarget } from '../kind.js';
import {
  httpUrlProblem,
  OwnEntry,
  type LoadedTargets,
  type SkippedTarget,
  type Target,
  type TargetFields,
} from '../types.js';
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

export type OwnEntryValue = z.infer<typeof OwnEntry>;

/** One entry of the list checked (`at`: where it is, `servers[3]`), or why it is skipped. */
export function parseOwnEntry(
  raw: unknown,
  at: string,
  ctx: FormatContext,
): { entry: OwnEntryValue } | { skipped: SkippedTarget } {
  const parsed = OwnEntry.safeParse(raw);
  if (!parsed.success)
    return { skipped: { name: rawName(raw) ?? at, source: ctx.file, reason: describeZodError(at, parsed.error) } };
  const problems = targetProblems(fieldsOf(parsed.data, ctx.file));
  if (problems.length === 0) return { entry: parsed.data };
  return { skipped: { name: parsed.data.name, source: ctx.file, reason: describeProblems(at, problems) } };
}

/** As describeZodError words them, with the fields named as the file names them (a bundle's `sha256`). */
function describeProblems(at: string, problems: TargetProblem[], max = 3): string {
  const field = (f: string) => (f === '' ? at : `${at}.${f === 'mcpb.sha256' ? 'sha256' : f}`);
  const shown = problems.slice(0, max).map((p) => `${field(p.field)}: ${p.message}`);
  return shown.join('; ') + (problems.length > max ? `; and ${problems.length - max} more` : '');
}

/** Also the plan library's reader (census/behaviour/probe-library.ts). */
export function ownEntryTarget(
  checked: OwnEntryValue,
  at: string,
  ctx: FormatContext,
): { target: Target } | { skipped: SkippedTarget } {
  let fields: TargetFields;
  let fromEnv: string[];
  try {
    ({ entry: fields, fromEnv } = expandFields(fieldsOf(checked, `${ctx.file}#${at}`), ctx, at));
  } catch (err) {
    if (!(err instanceof ExpandError)) throw err;
    return { skipped: { name: checked.name, source: ctx.file, reason: err.message, ...unexpanded(err) } };
  }
  const urlProblem = fields.url === undefined ? undefined : httpUrlProblem(fields.url);
  if (urlProblem) return { skipped: { name: checked.name, source: ctx.file, reason: `${at}.url: ${urlProblem}` } };
  return { target: toTarget({ ...fields, secrets: fromEnv.length ? fromEnv : undefined }) };
}

/** The entry's fields as a target's (`mcpb` and its `sha256` as one bundle). */
function fieldsOf(entry: OwnEntryValue, source: string): TargetFields {
  return {
    name: entry.name,
    source,
    transport: entry.transport,
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
    mcpb: entry.mcpb === undefined ? undefined : { url: entry.mcpb, sha256: entry.sha256 ?? '' },
    oci: entry.oci,
    installScripts: entry.installScripts,
    timeoutMs: entry.timeout,
    skip: entry.skip,
    comment: entry.comment,
    downloads: entry.downloads,
    oauth: entry.oauth === true ? {} : entry.oauth && { clientId: entry.oauth.clientId, scopes: entry.oauth.scopes },
  };
}

function rawName(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string') {
    return (raw as { name: string }).name;
  }
  return undefined;
}
