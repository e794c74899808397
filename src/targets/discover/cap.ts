/** Client files may list 300,000 entries (`where`: 13 s, 421 MB); no real client holds more than a few dozen. */
import type { ReaderId } from './clients.js';
import { isObject } from '../../model/is-object.js';

/** Entries read from one file at most (servers and skipped entries alike). */
export const MAX_SERVERS_PER_FILE = 1_000;
/** Entries read from all client files together at most. */
export const MAX_SERVERS_TOTAL = 5_000;

export interface Budget {
  /** Entries the current file may still add. */
  left: number;
  /** Entries of the current file left out. */
  cut: number;
}

/** The first `budget.left` entries of a map (null-prototype) or list; the rest counted in `cut`. */
function take(container: unknown, budget: Budget): unknown {
  if (Array.isArray(container)) {
    const kept = container.slice(0, budget.left);
    budget.cut += container.length - kept.length;
    budget.left -= kept.length;
    return kept;
  }
  if (!isObject(container)) return container;
  const keys = Object.keys(container);
  const out = Object.create(null) as Record<string, unknown>;
  const n = Math.min(keys.length, budget.left);
  for (let i = 0; i < n; i++) out[keys[i]!] = container[keys[i]!];
  budget.cut += keys.length - n;
  budget.left -= n;
  return out;
}

/** `doc` with `key` replaced by its first entries (a shallow copy; the parsed document is not changed). */
function at(doc: Record<string, unknown>, key: string, budget: Budget): Record<string, unknown> {
  if (!(key in doc)) return doc;
  return Object.assign(Object.create(null) as Record<string, unknown>, doc, { [key]: take(doc[key], budget) });
}

/** The document as the reader will see it: every place that holds servers cut to the budget. */
export function capDocument(reader: ReaderId, doc: Record<string, unknown>, budget: Budget): Record<string, unknown> {
  switch (reader) {
    case 'mcpServers':
    case 'gemini':
    case 'continue':
      return at(doc, 'mcpServers', budget);
    case 'vscode':
      return at(doc, 'servers', budget);
    case 'zed':
      return at(doc, 'context_servers', budget);
    case 'codex':
      return at(doc, 'mcp_servers', budget);
    case 'goose':
      return at(doc, 'extensions', budget);
    case 'vscodeSettings':
    case 'opencode': {
      const key = 'mcp';
      const mcp = doc[key];
      // VS Code's mcp.servers and OpenCode's V2 mcp.servers hold the servers; OpenCode V1 names them under mcp.
      if (
        isObject(mcp) &&
        (reader === 'vscodeSettings' || (isObject(mcp.servers) && typeof mcp.servers.type !== 'string'))
      ) {
        return Object.assign(Object.create(null) as Record<string, unknown>, doc, {
          [key]: at(mcp, 'servers', budget),
        });
      }
      return reader === 'opencode' ? at(doc, key, budget) : doc;
    }
    case 'claudeCode': {
      const top = at(doc, 'mcpServers', budget);
      const projects = top.projects;
      if (!isObject(projects)) return top;
      const kept = Object.create(null) as Record<string, unknown>;
      for (const [dir, project] of Object.entries(projects)) {
        if (!isObject(project) || !isObject(project.mcpServers)) continue;
        const servers = Object.keys(project.mcpServers).length;
        if (budget.left === 0) {
          budget.cut += servers;
          continue;
        }
        kept[dir] = at(project, 'mcpServers', budget);
      }
      return Object.assign(Object.create(null) as Record<string, unknown>, top, { projects: kept });
    }
  }
}
