/** Where servers sit deeper in a file, skip fields and sources are rebased to their place in it. */
import type { FormatContext } from '../formats/format.js';
import { mcpServersFormat, vscodeFormat } from '../formats/mcp-servers.js';
import type { LoadedTargets, Target } from '../types.js';
import type { ReaderId } from './clients.js';
import { readCodex, readContinue, readGoose, readOpenCode, readZed } from './formats.js';
import { isObject } from '../../model/is-object.js';

/** The file's top level or a section is not what the client writes there. */
export class ShapeError extends Error {}

/** A file's context, and the one for the project-scoped parts of a user file (Claude Code's `projects`). */
export type ReaderContext = FormatContext & { projectCtx: FormatContext };
/** What a reader found; `project` holds the targets that are project-scoped although the file is the user's. */
export type ReadTargets = LoadedTargets & { project?: Set<Target> };
type Reader = (doc: Record<string, unknown>, ctx: ReaderContext) => ReadTargets;
const empty = (): LoadedTargets => ({ targets: [], skipped: [] });

/** A `key` that must hold an object of servers if it is there at all. */
function section(doc: Record<string, unknown>, key: string, label = key): Record<string, unknown> | undefined {
  const v = doc[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new ShapeError(`"${label}" is not an object`);
  return v;
}

function mcpServersAt(map: Record<string, unknown> | undefined, ctx: FormatContext, prefix?: string): LoadedTargets {
  if (!map) return empty();
  const got = mcpServersFormat.read({ mcpServers: map }, ctx);
  return prefix ? rebase(got, ctx.file, 'mcpServers.', prefix) : got;
}

/** Moves `from...` (e.g. `servers.x.url`) to `to...` in every source anchor and skip reason. */
function rebase(got: LoadedTargets, file: string, from: string, to: string): LoadedTargets {
  const anchor = `${file}#${from}`;
  for (const t of got.targets)
    if (t.source.startsWith(anchor)) t.source = `${file}#${to}${t.source.slice(anchor.length)}`;
  for (const s of got.skipped) if (s.reason.startsWith(from)) s.reason = to + s.reason.slice(from.length);
  return got;
}

function merge(into: LoadedTargets, more: LoadedTargets): LoadedTargets {
  for (const t of more.targets) into.targets.push(t);
  for (const s of more.skipped) into.skipped.push(s);
  return into;
}

const READERS: Record<ReaderId, Reader> = {
  mcpServers: (doc, ctx) => mcpServersAt(section(doc, 'mcpServers'), ctx),
  // Gemini CLI's `url` is SSE, but the shared loader reads a bare `url` as Streamable HTTP.
  gemini: (doc, ctx) => {
    const map = section(doc, 'mcpServers');
    if (!map) return empty();
    const marked = Object.create(null) as Record<string, unknown>;
    for (const [name, raw] of Object.entries(map)) {
      const sse = isObject(raw) && raw.url !== undefined && raw.httpUrl === undefined && raw.type === undefined;
      marked[name] = sse ? Object.assign(Object.create(null) as Record<string, unknown>, raw, { type: 'sse' }) : raw;
    }
    return mcpServersAt(marked, ctx);
  },
  // Local-scope servers run only in their project, after asking: project-scoped like .mcp.json.
  claudeCode: (doc, ctx) => {
    const out: ReadTargets = mcpServersAt(section(doc, 'mcpServers'), ctx);
    out.project = new Set();
    for (const [dir, project] of Object.entries(section(doc, 'projects') ?? {})) {
      if (!isObject(project) || !isObject(project.mcpServers)) continue;
      const at = `projects[${JSON.stringify(dir)}].mcpServers.`;
      const got = mcpServersAt(project.mcpServers, { ...ctx.projectCtx, workspaceFolder: dir }, at);
      for (const t of got.targets) out.project.add(t);
      merge(out, got);
    }
    return out;
  },
  vscode: (doc, ctx) => {
    const map = section(doc, 'servers');
    return map ? vscodeFormat.read({ servers: map }, ctx) : empty();
  },
  vscodeSettings: (doc, ctx) => {
    const mcp = section(doc, 'mcp');
    const map = mcp && section(mcp, 'servers', 'mcp.servers');
    return map ? rebase(vscodeFormat.read({ servers: map }, ctx), ctx.file, 'servers.', 'mcp.servers.') : empty();
  },
  zed: readZed,
  codex: readCodex,
  continue: readContinue,
  goose: readGoose,
  opencode: readOpenCode,
};

/** An empty file (or an empty YAML document) holds no servers; any other top level but an object is an error. */
export function readDocument(reader: ReaderId, doc: unknown, ctx: ReaderContext): ReadTargets {
  if (doc === undefined || doc === null) return empty();
  if (!isObject(doc)) throw new ShapeError('expected an object at the top level');
  return READERS[reader](doc, ctx);
}
