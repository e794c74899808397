/**
 * What every package type (npm, PyPI, .mcpb, OCI) provides to `scan` and `install`, so that each
 * reads alike: one file per type, one table (packages.ts). Types only.
 */
import type { InstallResult } from './npm.js';
import type { PackageTarget, PackageType } from '../targets/types.js';

/** The command that runs an installed package, and what of it the sandbox binds back. */
export interface PackageCommand {
  command: string;
  args: string[];
  /** Added to the target's env (a bundle's `mcp_config.env`); for a container, the engine's own
   * environment, to which the target's env is never added. */
  env?: Record<string, string>;
  /** On idemscan's word, bound read-only under --sandbox: the cache entry, an interpreter prefix. */
  readable: string[];
  /** The OCI image digest recorded at install. */
  digest?: string;
  /** Names given fake values (`user_config.api_key` of a bundle). */
  fakeEnv?: string[];
  /** Runs in a container (docker, podman), which is its containment: not wrapped in bubblewrap,
   * which would hide the engine's socket. The launch passes the target's env to the container itself. */
  container?: boolean;
  /** Run once the server has closed (a container's env file). */
  cleanup?: () => Promise<void>;
}

export interface InstallContext {
  cacheDir: string;
  concurrency: number;
  signal?: AbortSignal;
  onDone?: (result: InstallResult) => void;
  /** PyPI: let pip build sdists (runs the package's build code at install time). */
  allowSdist?: boolean;
}

/** A package type's install and launch; `T` is the type whose targets it is given (packages.ts's `kindOf`). */
export interface PackageKind<T extends PackageType = PackageType> {
  /**
   * The target's package as the manifest and the install lines name it (`pypi:name==1.2.3`): one
   * install and one cache entry, so it holds what makes the bytes differ (a PyPI index, a bundle's sha256).
   */
  spec(target: PackageTarget<T>): string;
  /** Why the target's package is not one idemscan installs (a library caller's own targets). */
  problem(target: PackageTarget<T>): string | undefined;
  /** Why no entry of this type can run on this machine (no container engine), checked first. */
  unavailable?(): string | undefined;
  installed(target: PackageTarget<T>, cacheDir: string): boolean;
  /** Installs the packages of `targets` that are missing, each once. */
  install(targets: PackageTarget<T>[], ctx: InstallContext): Promise<InstallResult[]>;
  launch(target: PackageTarget<T>, cacheDir: string): Promise<PackageCommand>;
}
