/** Reads target files of any supported format into validated targets. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { TargetFormat } from './formats/format.js';
import { mcpServersFormat, vscodeFormat } from './formats/mcp-servers.js';
import { ownFormat } from './formats/own.js';
import { registryFormat } from './formats/registry.js';
import { TargetFileError, type LoadedTargets } from './types.js';

/** Order matters: our own `servers` array is tried before VS Code's `servers` object. */
export const FORMATS: TargetFormat[] = [ownFormat, mcpServersFormat, registryFormat, vscodeFormat];

export async function loadTargetFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedTargets> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new TargetFileError(file, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseTargets(text, file, env);
}

export function parseTargets(text: string, file: string, env: NodeJS.ProcessEnv = process.env): LoadedTargets {
  const errors: ParseError[] = [];
  // Client configs (VS Code's mcp.json above all) are JSON with comments and trailing commas.
  const doc: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = position(text, first.offset);
    throw new TargetFileError(file, `not valid JSON at line ${line}, column ${column}: ${printParseErrorCode(first.error)}`);
  }
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
    const ctx = { file, env, workspaceFolder: workspaceOf(file) };
    const got = format.read(one as Record<string, unknown>, ctx);
    out.targets.push(...got.targets);
    out.skipped.push(...got.skipped);
  });
  return out;
}

export async function loadTargetFiles(files: string[], env: NodeJS.ProcessEnv = process.env): Promise<LoadedTargets> {
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
    out.skipped.push(...got.skipped);
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

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
