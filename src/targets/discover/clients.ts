/** The MCP clients discovery knows (docs/DISCOVER.md is written from it); paths only from `Dirs`, for tests. */
import type { Dirs } from './dirs.js';

/** How a file is read: see readers.ts. */
export type ReaderId =
  | 'mcpServers'
  | 'gemini'
  | 'claudeCode'
  | 'vscode'
  | 'vscodeSettings'
  | 'zed'
  | 'codex'
  | 'continue'
  | 'goose'
  | 'opencode';

interface ClientFile {
  scope: 'user' | 'project';
  /** The file (or, with `dir`, the folder), or undefined where it has no place (no project given). */
  at(d: Dirs): string | undefined;
  reader: ReaderId;
  /** A folder whose `.yaml`, `.yml` and `.json` files are each read. */
  dir?: true;
}

export interface Client {
  id: string;
  name: string;
  source: string;
  files: ClientFile[];
}

const user = (reader: ReaderId, at: (d: Dirs) => string | undefined): ClientFile => ({ scope: 'user', at, reader });
const project = (reader: ReaderId, ...parts: string[]): ClientFile => ({
  scope: 'project',
  at: (d) => d.inProject(...parts),
  reader,
});

/** `%APPDATA%\Code\User`, `~/Library/Application Support/Code/User` or `$XDG_CONFIG_HOME/Code/User`. */
const vscodeUser = (d: Dirs, product: string, ...rest: string[]) => d.join(d.appData, product, 'User', ...rest);
/** An extension's folder in VS Code's globalStorage (Cline and Roo Code keep their servers there). */
const globalStorage = (product: string, extension: string, file: string) => (d: Dirs) =>
  vscodeUser(d, product, 'globalStorage', extension, 'settings', file);

export const CLIENTS: Client[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    // Linux has no official build; community builds use ~/.config/Claude (unconfirmed by Anthropic).
    source: 'https://modelcontextprotocol.io/quickstart/user',
    files: [user('mcpServers', (d) => d.join(d.appData, 'Claude', 'claude_desktop_config.json'))],
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    // Local scope sits under projects[<path>].mcpServers; CLAUDE_CONFIG_DIR moves ~/.claude.json.
    source: 'https://docs.anthropic.com/en/docs/claude-code/mcp',
    files: [
      user('claudeCode', (d) => d.join(d.env.CLAUDE_CONFIG_DIR || d.home, '.claude.json')),
      project('mcpServers', '.mcp.json'),
    ],
  },
  {
    id: 'cursor',
    name: 'Cursor',
    source: 'https://docs.cursor.com/context/model-context-protocol',
    files: [
      user('mcpServers', (d) => d.join(d.home, '.cursor', 'mcp.json')),
      project('mcpServers', '.cursor', 'mcp.json'),
    ],
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    // `serverUrl` for remotes.
    source: 'https://docs.windsurf.com/windsurf/cascade/mcp',
    files: [user('mcpServers', (d) => d.join(d.home, '.codeium', 'windsurf', 'mcp_config.json'))],
  },
  {
    id: 'vscode',
    name: 'VS Code',
    // Before 1.102 the user's servers were `mcp.servers` in settings.json.
    source: 'https://code.visualstudio.com/docs/copilot/chat/mcp-servers',
    files: [
      user('vscode', (d) => vscodeUser(d, 'Code', 'mcp.json')),
      user('vscodeSettings', (d) => vscodeUser(d, 'Code', 'settings.json')),
      project('vscode', '.vscode', 'mcp.json'),
    ],
  },
  {
    id: 'vscode-insiders',
    name: 'VS Code Insiders',
    // As VS Code, in the "Code - Insiders" folder. The project file .vscode/mcp.json is VS Code's (listed once).
    source: 'https://code.visualstudio.com/docs/copilot/chat/mcp-servers',
    files: [
      user('vscode', (d) => vscodeUser(d, 'Code - Insiders', 'mcp.json')),
      user('vscodeSettings', (d) => vscodeUser(d, 'Code - Insiders', 'settings.json')),
    ],
  },
  {
    id: 'cline',
    name: 'Cline',
    // The file name is cline's GlobalFileNames.mcpSettings (src/core/storage/disk.ts).
    source: 'https://docs.cline.bot/mcp/configuring-mcp-servers',
    files: [
      user('mcpServers', globalStorage('Code', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json')),
      user('mcpServers', globalStorage('Code - Insiders', 'saoudrizwan.claude-dev', 'cline_mcp_settings.json')),
    ],
  },
  {
    id: 'roo-code',
    name: 'Roo Code',
    source: 'https://docs.roocode.com/features/mcp/using-mcp-in-roo',
    files: [
      user('mcpServers', globalStorage('Code', 'rooveterinaryinc.roo-cline', 'mcp_settings.json')),
      user('mcpServers', globalStorage('Code - Insiders', 'rooveterinaryinc.roo-cline', 'mcp_settings.json')),
      project('mcpServers', '.roo', 'mcp.json'),
    ],
  },
  {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    // `httpUrl` is Streamable HTTP, `url` is SSE.
    source: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md',
    files: [
      user('gemini', (d) => d.join(d.home, '.gemini', 'settings.json')),
      project('gemini', '.gemini', 'settings.json'),
    ],
  },
  {
    id: 'codex',
    name: 'Codex',
    // .codex/config.toml counts only in a trusted project.
    source: 'https://github.com/openai/codex/blob/main/docs/config.md',
    files: [
      user('codex', (d) => d.join(d.env.CODEX_HOME || d.join(d.home, '.codex'), 'config.toml')),
      project('codex', '.codex', 'config.toml'),
    ],
  },
  {
    id: 'zed',
    name: 'Zed',
    // Settings paths per platform: https://zed.dev/docs/configuring-zed.
    source: 'https://zed.dev/docs/ai/mcp',
    files: [
      user('zed', (d) =>
        d.platform === 'win32'
          ? d.join(d.appData, 'Zed', 'settings.json')
          : d.join(d.xdgConfig, 'zed', 'settings.json'),
      ),
      project('zed', '.zed', 'settings.json'),
    ],
  },
  {
    id: 'continue',
    name: 'Continue',
    // Continue reads the user-level ~/.continue/mcpServers/ too (unconfirmed in its docs).
    source: 'https://docs.continue.dev/customize/deep-dives/mcp',
    files: [
      user('continue', (d) => d.join(d.env.CONTINUE_GLOBAL_DIR || d.join(d.home, '.continue'), 'config.yaml')),
      {
        ...user('continue', (d) => d.join(d.env.CONTINUE_GLOBAL_DIR || d.join(d.home, '.continue'), 'mcpServers')),
        dir: true,
      },
      { ...project('continue', '.continue', 'mcpServers'), dir: true },
    ],
  },
  {
    id: 'goose',
    name: 'Goose',
    source: 'https://block.github.io/goose/docs/guides/config-file',
    files: [
      user('goose', (d) =>
        d.platform === 'win32'
          ? d.join(d.appData, 'Block', 'goose', 'config', 'config.yaml')
          : d.join(d.xdgConfig, 'goose', 'config.yaml'),
      ),
    ],
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    // XDG paths on every platform (https://opencode.ai/docs/config).
    source: 'https://opencode.ai/docs/mcp-servers',
    files: [
      user('opencode', (d) => d.join(d.xdgConfig, 'opencode', 'opencode.json')),
      user('opencode', (d) => d.join(d.xdgConfig, 'opencode', 'opencode.jsonc')),
      project('opencode', 'opencode.json'),
      project('opencode', 'opencode.jsonc'),
      project('opencode', '.opencode', 'opencode.json'),
    ],
  },
  {
    id: 'lm-studio',
    name: 'LM Studio',
    // Cursor's `mcpServers` notation.
    source: 'https://lmstudio.ai/docs/app/plugins/mcp',
    files: [user('mcpServers', (d) => d.join(d.home, '.lmstudio', 'mcp.json'))],
  },
  {
    id: 'amazon-q',
    name: 'Amazon Q Developer',
    source: 'https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html',
    files: [
      user('mcpServers', (d) => d.join(d.home, '.aws', 'amazonq', 'mcp.json')),
      project('mcpServers', '.amazonq', 'mcp.json'),
    ],
  },
];

export interface Location {
  client: Client;
  scope: 'user' | 'project';
  path: string;
  reader: ReaderId;
  dir: boolean;
}

/** Every place to look, in table order; a path two clients share (HOME as the project) once. */
export function locations(d: Dirs): Location[] {
  const out: Location[] = [];
  const seen = new Set<string>();
  for (const client of CLIENTS) {
    for (const f of client.files) {
      const at = f.at(d);
      if (at === undefined || seen.has(at)) continue;
      seen.add(at);
      out.push({ client, scope: f.scope, path: at, reader: f.reader, dir: !!f.dir });
    }
  }
  return out;
}
