/** Our own list format: `{ "servers": [ { "name", "command" | "url" | "npm" | "pypi" | "mcpb" | "oci", ... } ] }`. */
import { expandFields, ExpandError, unexpanded } from '../expand.js';
import { toTarget } from '../kind.js';
import { httpUrlProblem, OwnEntry, type LoadedTargets, type Target } from '../types.js';
import { describeZodError, type TargetFormat } from './format.js';

export const ownFormat: TargetFormat = {
  id: 'idemscan',
  detect: (doc) =>
    Array.isArray(doc.servers) && !doc.servers.some((s) => !!s && typeof s === 'object' && 'server' in s),
  read(doc, ctx) {
    const out: LoadedTargets = { targets: [], skipped: [] };
    const seen = new Set<string>();
    (doc.servers as unknown[]).forEach((raw, i) => {
      const at = `servers[${i}]`;
      const label = rawName(raw) ?? at;
      const parsed = OwnEntry.safeParse(raw);
      if (!parsed.success) {
        out.skipped.push({ name: label, source: ctx.file, reason: describeZodError(at, parsed.error) });
        return;
      }
      let entry = parsed.data;
      if (seen.has(entry.name)) {
        out.skipped.push({ name: label, source: ctx.file, reason: `${at}.name: duplicate name "${entry.name}"` });
        return;
      }
      seen.add(entry.name);
      let fromEnv: string[];
      try {
        ({ entry, fromEnv } = expandFields(entry, ctx, at));
      } catch (err) {
        if (!(err instanceof ExpandError)) throw err;
        out.skipped.push({ name: entry.name, source: ctx.file, reason: err.message, ...unexpanded(err) });
        return;
      }
      const urlProblem = entry.url === undefined ? undefined : httpUrlProblem(entry.url);
      if (urlProblem) {
        out.skipped.push({ name: entry.name, source: ctx.file, reason: `${at}.url: ${urlProblem}` });
        return;
      }
      const target: Target = toTarget({
        name: entry.name,
        source: `${ctx.file}#${at}`,
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
        oauth:
          entry.oauth === true ? {} : entry.oauth && { clientId: entry.oauth.clientId, scopes: entry.oauth.scopes },
        secrets: fromEnv.length ? fromEnv : undefined,
      });
      if (target.skip) out.skipped.push({ name: target.name, source: ctx.file, reason: target.skip });
      else out.targets.push(target);
    });
    return out;
  },
};

function rawName(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string') {
    return (raw as { name: string }).name;
  }
  return undefined;
}
