/** A client's entry to a Target as the mcpServers loader does it, so a skip reason names the field. */
import { z } from 'zod';
import { ENV_NAME, expandFields, ExpandError, unexpanded } from '../expand.js';
import { launchText } from '../formats/fields.js';
import type { FormatContext } from '../formats/format.js';
import { toTarget } from '../kind.js';
import { httpUrlProblem, type LoadedTargets, type Target, type TargetInput } from '../types.js';

/** Hand-written configs say `"DEBUG": true` or `args = ["--port", 8080]`; clients pass them as text. */
export const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String).pipe(launchText);

/** An environment variable's name, as the configs that refer to one by name give it. */
export const varName = z.string().regex(ENV_NAME, 'not an environment variable name');

/** What a client's entry says about starting or reaching its server: the launch part of a Target. */
export type ClientEntry = Pick<TargetInput, 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers'>;

/** A map read into a null-prototype object (config maps may name `__proto__`). */
export const objectEntries = (v: unknown): [string, unknown][] =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v as Record<string, unknown>) : [];

/** Adds the entry `at` (e.g. `mcp_servers.github`) to `out`, as a target or a skip with the reason. */
export function addTarget(
  out: LoadedTargets,
  name: string,
  launch: ClientEntry,
  ctx: FormatContext,
  at: string,
  urlField = 'url',
): void {
  let entry: ClientEntry;
  let fromEnv: string[];
  try {
    ({ entry, fromEnv } = expandFields(launch as unknown as Record<string, unknown>, ctx, at) as unknown as {
      entry: ClientEntry;
      fromEnv: string[];
    });
  } catch (err) {
    if (!(err instanceof ExpandError)) throw err;
    const reason = err.message.replace(`${at}.url`, `${at}.${urlField}`);
    out.skipped.push({ name, source: ctx.file, reason, ...unexpanded(err) });
    return;
  }
  const problem = entry.url === undefined ? undefined : httpUrlProblem(entry.url);
  if (problem) {
    out.skipped.push({ name, source: ctx.file, reason: `${at}.${urlField}: ${problem}` });
    return;
  }
  const target: Target = toTarget({
    name,
    source: `${ctx.file}#${at}`,
    transport: entry.transport,
    command: entry.command,
    args: entry.args,
    env: entry.env,
    cwd: entry.cwd,
    url: entry.url,
    headers: entry.headers,
    secrets: fromEnv.length ? fromEnv : undefined,
  });
  out.targets.push(target);
}

export function disabled(out: LoadedTargets, name: string, ctx: FormatContext, field: string): void {
  out.skipped.push({ name, source: ctx.file, reason: `${field}: the entry is disabled` });
}
