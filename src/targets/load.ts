import path from 'node:path';
import { readBoundedText } from '../io/read.js';
import { parseJsonc } from './jsonc.js';
import type { TargetFormat } from './formats/format.js';
import { mcpServersFormat, vscodeFormat } from './formats/mcp-servers.js';
import { ownFormat } from './formats/own.js';
import { registryFormat } from './formats/registry.js';
import { TargetFileError, type LoadedTargets } from './types.js';

/** Order matters: our own `servers` array is tried before VS Code's `servers` object. */
const FORMATS: TargetFormat[] = [ownFormat, mcpServersFormat, registryFormat, vscodeFormat];

/** Far above any real target file (a dump of the whole MCP registry is a few MB), far below a memory problem. */
export const MAX_TARGET_FILE_BYTES = 16 * 1024 * 1024;
const MAX_REASON = 1_000;
const TOO_LARGE = `larger than ${MAX_TARGET_FILE_BYTES / 1024 / 1024} MB; not read`;

/** Someone else may write a target file: `${VAR}` reads only `env` (the `--allow-env` names), none by default. */
export async function loadTargetFile(file: string, env: NodeJS.ProcessEnv = {}): Promise<LoadedTargets> {
  const text = await readBounded(file);
  // A saved tools/list result (or a file of them) is a static target: nothing to start.
  const saved = (await import('./saved-tools.js')).savedTargets(text, file);
  return saved ? { targets: saved, skipped: [] } : parseTargets(text, file, env);
}

/** Regular files only, bounded: the path may name /dev/zero, a FIFO or a huge file. */
export async function readBounded(file: string, field?: string): Promise<string> {
  const got = await readBoundedText(file, { maxBytes: MAX_TARGET_FILE_BYTES });
  if ('error' in got) throw new TargetFileError(file, got.error, got.kind, field);
  return got.text;
}

export function parseTargets(text: string, file: string, env: NodeJS.ProcessEnv = {}): LoadedTargets {
  // loadTargetFile bounds what it reads; this bounds what a library caller passes in.
  if (text.length > MAX_TARGET_FILE_BYTES) throw new TargetFileError(file, TOO_LARGE, 'too-large');
  const parsed = parseJsonc(text);
  if ('error' in parsed) throw new TargetFileError(file, parsed.error, 'syntax');
  const doc = parsed.value;
  const docs = Array.isArray(doc) ? doc : [doc];
  const out: LoadedTargets = { targets: [], skipped: [] };
  docs.forEach((one, i) => {
    if (!one || typeof one !== 'object' || Array.isArray(one)) {
      throw new TargetFileError(file, `${Array.isArray(doc) ? `[${i}]: ` : ''}expected an object`);
    }
    const format = FORMATS.find((f) => f.detect(one as Record<string, unknown>));
    if (!format) {
      throw new TargetFileError(
        file,
        'unknown format: expected "servers" (a list, or VS Code\'s object), "mcpServers", or an MCP registry server.json',
      );
    }
    const ctx = { file, env, workspaceFolder: workspaceOf(file), untrusted: 'a target file' };
    const got = format.read(one as Record<string, unknown>, ctx);
    // Loops, not push(...): a file of a few MB can hold more entries than a call has arguments.
    for (const t of got.targets) out.targets.push({ ...t, listFolder: ctx.workspaceFolder });
    // A reason quotes keys and values of the file; one of megabytes is no use to anyone.
    for (const s of got.skipped)
      out.skipped.push({ ...s, name: s.name.slice(0, MAX_REASON), reason: s.reason.slice(0, MAX_REASON) });
  });
  return out;
}

export async function loadTargetFiles(files: string[], env: NodeJS.ProcessEnv = {}): Promise<LoadedTargets> {
  const out: LoadedTargets = { targets: [], skipped: [] };
  const names = new Set<string>();
  for (const file of files) {
    const got = await loadTargetFile(file, env);
    for (const t of got.targets) {
      // Two files may both name "github": keep both, told apart by file.
      if (names.has(t.name)) t.name = unique(`${t.name} (${path.basename(file)})`, names);
      names.add(t.name);
      out.targets.push(t);
    }
    for (const s of got.skipped) out.skipped.push(s);
  }
  return out;
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} #${n}`;
  return candidate;
}

function workspaceOf(file: string): string {
  const dir = path.dirname(path.resolve(file));
  return path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
}
