import { z } from 'zod';
import { binName, envMap, headerMap, launchText, npmSpec, ociRef, pypiSpec } from './formats/fields.js';
import { InputError } from '../model/input-error.js';
import { SHA256_WORDS } from './check.js';

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
  /** The folder of the target list it came from: files it names there reach it read-only under --sandbox. */
  listFolder?: string;
}

/** What a process is started with besides its command: a command's, or a package's. */
interface ProcessFields {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface CommandTarget extends TargetShared, ProcessFields {
  kind: 'command';
  command: string;
}

/** A server reached over HTTP: `http` is Streamable HTTP (then HTTP+SSE), `sse` HTTP+SSE only. */
export interface RemoteTarget extends TargetShared {
  kind: 'remote';
  transport: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  /** An OAuth-protected HTTP server, and the client to use (docs/OAUTH.md); `{}` for `"oauth": true`. */
  oauth?: TargetOAuthEntry;
}

/** A pinned npm package (`name@1.2.3`). */
interface NpmPackage {
  type: 'npm';
  spec: string;
  /** The bin to run; default: the one named like the package. */
  bin?: string;
  /** Why it needs its install scripts (they run sandboxed; by default none run). */
  installScripts?: string;
}

/** A pinned PyPI package (`name==1.2.3`), installed into a virtual environment in the cache. */
interface PypiPackage {
  type: 'pypi';
  spec: string;
  /** The console script to run; default: the one named like the package. */
  bin?: string;
  /** The PEP 503 index it comes from (`https://.../simple`, `file:///...`); PyPI's by default. */
  index?: string;
}

/** A `.mcpb` bundle: downloaded from `url`, checked against `sha256` before it is unpacked. */
interface McpbPackage {
  type: 'mcpb';
  url: string;
  sha256: string;
}

/** An OCI image, pinned by a tag other than `latest` or by a digest; run by docker or podman. */
interface OciPackage {
  type: 'oci';
  ref: string;
}

interface Packages {
  npm: NpmPackage;
  pypi: PypiPackage;
  mcpb: McpbPackage;
  oci: OciPackage;
}
export type PackageType = keyof Packages;
export type TargetPackage = Packages[PackageType];

/** A pinned package launched from the install cache (launch/packages.ts); `T` narrows it to one type. */
export interface PackageTarget<T extends PackageType = PackageType> extends TargetShared, ProcessFields {
  kind: 'package';
  package: Packages[T];
  /** The runner and spec as written (`npx -y pkg@^1`), and whether idemscan resolved the version. */
  launcher?: { runner: string; spec: string; resolved: boolean };
}

/** A saved tools/list result (targets/saved-tools.ts), classified without contacting anything. */
interface SavedTarget extends TargetShared {
  kind: 'saved';
  saved: SavedToolList;
}

/** A server to scan, after its file or its caller's input was checked (targets/check.ts). */
export type Target = CommandTarget | RemoteTarget | PackageTarget | SavedTarget;

/** What a library caller hands `scan()`: every kind's fields flat, `transport` saying which (kind.ts converts). */
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

/** A target's flat fields as a target file gives them: `transport` may be left to the fields. */
export type TargetFields = Omit<TargetInput, 'transport'> & { transport?: TargetInput['transport'] };

/** Never a secret or its variable: a foreign list must not choose which variable goes to its auth server. */
export interface TargetOAuthEntry {
  clientId?: string;
  scopes?: string[];
}

const CLIENT_SECRET_REFUSED =
  'a target file may not name a client secret (its variable would be sent to whatever authorization server the server names); give it on the command line: --client-secret-env VAR with --oauth and --client-origin (docs/OAUTH.md)';

/** A saved tools/list result: its tools as listed, and what the server said of itself, when saved too. */
export interface SavedToolList {
  tools: unknown[];
  capabilities?: Record<string, unknown>;
  serverInfo?: Record<string, unknown>;
}

const TRUSTED_REFUSED =
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

/** `unreadable` (path, permissions), `too-large`, `syntax` (not JSON/JSONC) or `format` (unknown shape). */
export type TargetFileErrorKind = 'unreadable' | 'not-a-file' | 'too-large' | 'syntax' | 'format';

/** A whole target file could not be used (an InputError, exit 2); single bad entries are `skipped` instead. */
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

/** Our own list format; unknown fields are errors so a typo like `tursted` cannot pass. */
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
    // Named only to be refused with the reason, not as an unknown field.
    trusted: z.never({ error: TRUSTED_REFUSED }).optional(),
    timeout: z.number().int().positive().max(2_147_483_647).optional(),
    skip: z.string().optional(),
    // Why the pin is held; `targets refresh` reports the latest version and leaves the pin alone.
    hold: z.string().min(1, 'give the reason the pin is held').max(1_000).optional(),
    comment: z.string().optional(),
    downloads: z.number().int().nonnegative().optional(),
    oauth: z
      .union([
        z.literal(true),
        z
          .object({
            clientId: z.string().min(1).max(500),
            // Named only to be refused below with the reason, not as an unknown field.
            clientSecretEnv: z.unknown().optional(),
            scopes: z.array(z.string().min(1).max(200)).max(50).optional(),
          })
          .strict(),
      ])
      .optional(),
  })
  .strict()
  // The file gives a bundle's hash as a field of its own; check.ts checks it beside its bundle.
  .refine((e) => !e.sha256 || e.mcpb, { message: SHA256_WORDS, path: ['sha256'] })
  .refine((e) => e.oauth === undefined || e.oauth === true || e.oauth.clientSecretEnv === undefined, {
    message: CLIENT_SECRET_REFUSED,
    path: ['oauth', 'clientSecretEnv'],
  });

// Kept free of zod (scan() checks a library caller's URLs with it, and audit loads no zod).
export { httpUrlProblem } from './url.js';
