import { z } from 'zod';

/** A server to scan, after its file was read and validated. Secrets live here, never in a report. */
export interface Target {
  name: string;
  /** The file (and entry) it came from, for error messages and the report. */
  source: string;
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** A pinned npm package (`name@version`) launched from the install cache instead of a command. */
  npm?: string;
  bin?: string;
  trusted?: boolean;
  /** Overrides --timeout for this server (some start slowly). */
  timeoutMs?: number;
  /** Env or header names that were given obvious fake values (registry secrets), not real ones. */
  fakeEnv?: string[];
  /** Why this entry is not scanned here (kept so the next person knows). */
  skip?: string;
  comment?: string;
}

export interface SkippedTarget {
  name: string;
  source: string;
  reason: string;
}

export interface LoadedTargets {
  targets: Target[];
  skipped: SkippedTarget[];
}

/** A whole target file could not be used: wrong path, not JSON, unknown shape. */
export class TargetFileError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'TargetFileError';
  }
}

const stringMap = z.record(z.string(), z.string());

/** One entry of our own list format (documented in the README). */
export const OwnEntry = z
  .object({
    name: z.string().min(1),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().optional(),
    url: z.string().url().optional(),
    transport: z.enum(['stdio', 'http', 'sse']).optional(),
    headers: stringMap.optional(),
    npm: z
      .string()
      .regex(/^(@[^/@\s]+\/)?[^/@\s]+@[^@\s]+$/, 'expected "name@version" with a pinned version')
      .optional(),
    bin: z.string().optional(),
    trusted: z.boolean().optional(),
    timeout: z.number().int().positive().optional(),
    skip: z.string().optional(),
    comment: z.string().optional(),
  })
  .refine((e) => [e.command, e.url, e.npm].filter(Boolean).length === 1, {
    message: 'exactly one of "command", "url" or "npm" is required',
  });

export const OwnFile = z.object({
  $schema: z.string().optional(),
  description: z.string().optional(),
  servers: z.array(z.unknown()),
});
