/** What each package type (npm, PyPI, .mcpb, OCI) provides; the table is packages.ts. */
import type { InstallResult } from './npm.js';
import type { PackageTarget, PackageType } from '../targets/types.js';

/** The command that runs an installed package, and what of it the sandbox binds back. */
export interface PackageCommand {
  command: string;
  args: string[];
  /** Added to the target's env; for a container, the engine's own environment, never the target's. */
  env?: Record<string, string>;
  /** On idemscan's word, bound read-only under --sandbox: the cache entry, an interpreter prefix. */
  readable: string[];
  digest?: string;
  /** Names given fake values (`user_config.api_key` of a bundle). */
  fakeEnv?: string[];
  /** Contained by its engine, not bubblewrap (which would hide the engine's socket). */
  container?: boolean;
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
  /** As the manifest and install lines name it: it holds what makes the bytes differ (index, sha256). */
  spec(target: PackageTarget<T>): string;
  /** Why the target's package is not one idemscan installs (a library caller's own targets). */
  problem(target: PackageTarget<T>): string | undefined;
  /** Why no entry of this type can run on this machine (no container engine), checked first. */
  unavailable?(): string | undefined;
  installed(target: PackageTarget<T>, cacheDir: string): boolean;
  install(targets: PackageTarget<T>[], ctx: InstallContext): Promise<InstallResult[]>;
  launch(target: PackageTarget<T>, cacheDir: string): Promise<PackageCommand>;
}
