import { z } from 'zod';
import { binName, envMap, headerMap, launchText, npmSpec, ociRef, pypiSpec } from './formats/fields.js';
import { InputError } from '../model/input-error.js';
import { SHA256 } from '../model/package-spec.js';

/** What every target has, whatever its kind. Secrets live here, never in a report. */
interface TargetShared {
  name: string;
  /** The file (and entry) it came from, for error messages and the report. */
  source: string;
  /** The library caller's own word that this server's hints hold (as `--trust`); never read from a target file. */
  trusted?: boolean;
  /** Overrides --timeout for this server (some start slowly). */
  timeoutMs?: number;
  /** Env or header names that were given obvious fake values (registry secrets), not real ones. */
  fakeEnv?: string[];
  /** Values that `${VAR}` expansion took from the environment: redacted wherever they appear. */
  secrets?: string[];
  /** Why this entry is not scanned here (kept so the next person knows). */
  skip?: string;
  comment?: string;
  /** Monthly npm downloads when the list was made: lets an ecosystem report weight by use. */
  downloads?: number;
  /** The MCP clients and files that configure this server (`scan --discover`). */
  listedBy?: { client: string; file: string }[];
}

/** A command to start as it is written (the report's `transport` is `stdio`). */
export interface CommandTarget extends TargetShared {
  kind: 'command';
  transport: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A server reached over HTTP: Streamable HTTP (then HTTP+SSE) or HTTP+SSE only. */
export interface RemoteTarget extends TargetShared {
  kind: 'remote';
  transport: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  /** An OAuth-protected HTTP server, and the client to use (docs/OAUTH.md); `{}` for `"oauth": true`. */
  oauth?: TargetOAuthEntry;
}

/** A pinned package launched from the install cache (launch/packages.ts): exactly one of `npm`, `pypi`, `mcpb`, `oci`. */
export interface PackageTarget extends TargetShared {
  kind: 'package';
  transport: 'stdio';
  /** A pinned npm package (`name@version`). */
  npm?: string;
  /** A pinned PyPI package (`name==1.2.3`), installed into a virtual environment in the cache. */
  pypi?: string;
  /** The console script (PyPI) or bin (npm) to run; default: the one named like the package. */
  bin?: string;
  /** The PEP 503 index a `pypi` package comes from (`https://.../simple`, `file:///...`); PyPI's by default. */
  index?: string;
  /** A `.mcpb` bundle: downloaded from `url`, checked against `sha256` before it is unpacked. */
  mcpb?: { url: string; sha256: string };
  /** An OCI image, pinned by a tag other than `latest` or by a digest; run by docker or podman. */
  oci?: string;
  /** Why this npm package needs its install scripts (they run sandboxed; by default none run). */
  installScripts?: string;
  /** What the config said when it started the package through a runner (`npx -y pkg@^1 ...`):
   * the runner, the package as written, and whether idemscan resolved its version (unpinned). */
  launcher?: { runner: string; spec: string; resolved: boolean };
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A saved tools/list result (targets/saved-tools.ts), classified without contacting anything. */
export interface SavedTarget extends TargetShared {
  kind: 'saved';
  transport: 'static';
  saved: SavedToolList;
}

type Kinds = CommandTarget | RemoteTarget | PackageTarget | SavedTarget;
type KeysOf<T> = T extends unknown ? keyof T : never;
/** Each kind with the other kinds' fields as `undefined`: read anywhere, set only on their own kind. */
type Exclusive<T, All extends PropertyKey> = T extends unknown
  ? T & Partial<Record<Exclude<All, keyof T>, undefined>>
  : never;

/**
 * A server to scan, after its file was read and validated: one of four kinds, told apart by
 * `kind` (`transport` is the report's word for it). A field of another kind reads `undefined`, so
 * what describes every kind alike (the report's `target`, the merge key) reads them all.
 */
export type Target = Exclusive<Kinds, KeysOf<Kinds>>;

/**
 * What a library caller hands `scan()` (exported as `Target`): the fields of every kind in one
 * object, without a kind; `toTarget()` (targets/kind.ts) gives each its kind once scan-input.ts
 * has checked it.
 */
export interface TargetInput extends TargetShared {
  /** `static`: a saved tools/list result (`saved`), classified without contacting anything. */
  transport: 'stdio' | 'http' | 'sse' | 'static';
  saved?: SavedToolList;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  npm?: string;
  bin?: string;
  pypi?: string;
  index?: string;
  mcpb?: { url: string; sha256: string };
  oci?: string;
  launcher?: { runner: string; spec: string; resolved: boolean };
  installScripts?: string;
  oauth?: TargetOAuthEntry;
}

/**
 * A target's `oauth` entry: a pre-registered public client id and scopes. Never a secret, nor the
 * variable holding one: a list someone else wrote must not choose which of the user's environment
 * variables is posted to the authorization server its server names (`--client-secret-env` only).
 */
export interface TargetOAuthEntry {
  clientId?: string;
  scopes?: string[];
}

export const CLIENT_SECRET_REFUSED =
  'a target file may not name a client secret (its variable would be sent to whatever authorization server the server names); give it on the command line: --client-secret-env VAR with --oauth and --client-origin (docs/OAUTH.md)';

/** A saved tools/list result: its tools as listed, and what the server said of itself, when saved too. */
export interface SavedToolList {
  tools: unknown[];
  capabilities?: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
}

export const TRUSTED_REFUSED =
  'a target file may not mark its own servers trusted (a list would vouch for itself); trust a server on the command line: --trust NAME';

export interface SkippedTarget {
  name: string;
  source: string;
  reason: string;
  /** The `${VAR}` left unexpanded, when that is why it was skipped (for messages; not in the report). */
  unexpanded?: string;
}

export interface LoadedTargets {
  targets: Target[];
  skipped: SkippedTarget[];
}

/** Why a whole target file could not be used: `unreadable` (path, permissions), `too-large`, `syntax` (not JSON/JSONC), `format` (an unknown shape). */
export type TargetFileErrorKind = 'unreadable' | 'not-a-file' | 'too-large' | 'syntax' | 'format';

/** A whole target file could not be used: wrong path, not JSON, unknown shape. Single bad entries are `skipped` instead. An InputError (exit 2 in the CLI). */
export class TargetFileError extends InputError {
  declare readonly file: string;

  constructor(
    file: string,
    detail: string,
    readonly kind: TargetFileErrorKind = 'format',
    /** The flag that named the file (`--tools`), when the caller says. */
    field?: string,
  ) {
    super(detail, { file, field });
    this.name = 'TargetFileError';
  }
}

/** One entry of our own list format (documented in the README). Unknown fields are errors: a typo
 * like `tursted` must not pass silently. */
export const OwnEntry = z
  .object({
    name: z.string().min(1),
    command: launchText.min(1).optional(),
    args: z.array(launchText).optional(),
    env: envMap(launchText).optional(),
    cwd: launchText.optional(),
    // Checked after `${VAR}` expansion (see httpUrlProblem): "${MCP_URL}" is not a URL yet.
    url: z.string().min(1).optional(),
    transport: z.enum(['stdio', 'http', 'sse']).optional(),
    headers: headerMap.optional(),
    npm: npmSpec.optional(),
    bin: binName.optional(),
    pypi: pypiSpec.optional(),
    index: z.string().min(1).optional(),
    mcpb: z.string().min(1).optional(),
    sha256: z.string().optional(),
    oci: ociRef.optional(),
    // The reason, required: install scripts are package code run at install time.
    installScripts: z.string().min(1, 'give the reason the package needs its install scripts').optional(),
    // Accepted here only to be refused below by name, with the reason, not as an unknown field.
    trusted: z.unknown().optional(),
    timeout: z.number().int().positive().max(2_147_483_647).optional(),
    skip: z.string().optional(),
    // Why this pin stays where it is (the latest version does not start here, say): `targets
    // refresh` reports the latest version and leaves the pin alone. A scan does not read it.
    hold: z.string().min(1, 'give the reason the pin is held').max(1_000).optional(),
    comment: z.string().optional(),
    downloads: z.number().int().nonnegative().optional(),
    oauth: z
      .union([
        z.literal(true),
        z
          .object({
            clientId: z.string().min(1).max(500),
            // Accepted here only to be refused below by name, with the reason, not as an unknown field.
            clientSecretEnv: z.unknown().optional(),
            scopes: z.array(z.string().min(1).max(200)).max(50).optional(),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict()
  .refine((e) => [e.command, e.url, e.npm, e.pypi, e.mcpb, e.oci].filter(Boolean).length === 1, {
    message: 'exactly one of "command", "url", "npm", "pypi", "mcpb" or "oci" is required',
  })
  .refine((e) => !e.index || e.pypi, { message: '"index" applies to "pypi" packages only', path: ['index'] })
  .refine((e) => !e.mcpb || e.sha256, {
    message: 'a "mcpb" bundle needs its "sha256" (it is checked before anything is unpacked)',
    path: ['sha256'],
  })
  .refine((e) => !e.sha256 || (e.mcpb && SHA256.test(e.sha256)), {
    message: '"sha256" is the 64 hex digits of a "mcpb" bundle',
    path: ['sha256'],
  })
  .refine((e) => !e.oauth || e.url, { message: '"oauth" applies to "url" servers only', path: ['oauth'] })
  .refine((e) => e.oauth === undefined || e.oauth === true || e.oauth.clientSecretEnv === undefined, {
    message: CLIENT_SECRET_REFUSED,
    path: ['oauth', 'clientSecretEnv'],
  })
  .refine((e) => e.trusted === undefined, { message: TRUSTED_REFUSED, path: ['trusted'] })
  .refine((e) => !e.installScripts || e.npm, {
    message: '"installScripts" applies to "npm" packages only',
    path: ['installScripts'],
  })
  .refine((e) => !e.transport || (e.url ? e.transport !== 'stdio' : e.transport === 'stdio'), {
    message: '"transport" must be "stdio" for a command or package, "http" or "sse" for a url',
    path: ['transport'],
  });

// Kept free of zod (scan() checks a library caller's URLs with it, and audit loads no zod).
export { httpUrlProblem } from './url.js';
