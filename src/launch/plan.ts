/** A target resolved and contained; what stops a launch is a `LaunchFailure`, reported as a `spawn` failure. */
import type { Failure } from '../model/schema.js';
import type {
  CommandTarget,
  PackageTarget,
  RemoteTarget,
  SavedToolList,
  Target,
  TargetOAuthEntry,
} from '../targets/types.js';
import { cacheContainment, installAdvice } from './npm.js';
import { packageOf } from './packages.js';
import type { PackageCommand } from './package-kind.js';
import { pypiProblem } from './pypi-launch.js';
import { contain, type ContainOptions, type SandboxMode } from './sandbox.js';
import { shippedPaths } from './shipped.js';

/** Besides how to start or reach the server: what the report records, and the cleanup. */
interface PlanShared {
  /** How the process is contained (the report's `target.sandbox`); a stdio server's only. */
  sandbox?: SandboxMode | 'container';
  /** The command a package resolved to, its arguments redacted (the report's `target.resolved`). */
  resolved?: string;
  digest?: string;
  /** Names the package's launch gave fake values (a bundle's `user_config`), added to the target's. */
  fakeEnv?: string[];
  /** `--writable`: the directories bound read-write into bubblewrap (the report's `target.writable`). */
  writable?: string[];
  cleanup?: () => Promise<void>;
}

interface StdioPlan extends PlanShared {
  transport: 'stdio';
  command: string;
  args: string[];
  /** The server's own variables, the launch's identity (era memo); only the server gets them, via `spawnEnv`. */
  env: Record<string, string>;
  /** The whole environment `command` is spawned with (server-env.ts: the wrappers' own, the server's carried). */
  spawnEnv: Record<string, string>;
  cwd?: string;
}

export interface RemotePlan extends PlanShared {
  transport: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  /** The target's public OAuth client (a client secret comes only from the command line). */
  oauthClient?: TargetOAuthEntry;
}

interface SavedPlan extends PlanShared {
  transport: 'static';
  saved: SavedToolList;
}

export type LaunchPlan = StdioPlan | RemotePlan | SavedPlan;

/** Why the target cannot be launched; `resolved` when its package did resolve before the refusal. */
export interface LaunchFailure {
  failure: Failure & { kind: 'spawn' };
  resolved?: string;
}

export interface PlanContext {
  cacheDir: string;
  sandbox: boolean;
  writable?: string[];
  /** Why a package cannot run, by spec (resolution, checks and installs that failed: prepare.ts). */
  installErrors: ReadonlyMap<string, string>;
  /** The server's redaction of its arguments, for `resolved` (launch/ does not import redact/). */
  redactArgs: (args: string[]) => string[];
}

export async function planLaunch(target: Target, ctx: PlanContext): Promise<{ plan: LaunchPlan } | LaunchFailure> {
  if (target.kind === 'saved') return { plan: { transport: 'static', saved: target.saved } };
  if (target.kind === 'remote') return { plan: remotePlan(target) };
  let ready: (PackageCommand & { resolved: string }) | undefined;
  try {
    ready = await packageLaunch(target, ctx);
    return { plan: containStdio(target, ready, ctx) };
  } catch (err) {
    await ready?.cleanup?.();
    return { failure: { kind: 'spawn', message: (err as Error).message }, resolved: ready?.resolved };
  }
}

/** A remote target's URL, headers and its public OAuth client (`oauth: {}` still says: this server signs in). */
function remotePlan(target: RemoteTarget): RemotePlan {
  const { transport, url, headers, oauth } = target;
  return { transport, url, headers, oauthClient: oauth && { clientId: oauth.clientId, scopes: oauth.scopes } };
}

/** The installed package's launch, after the checks that it can run; undefined for a plain command. */
async function packageLaunch(
  target: Target,
  ctx: PlanContext,
): Promise<(PackageCommand & { resolved: string }) | undefined> {
  const pkg = packageOf(target);
  if (!pkg) return undefined;
  const unavailable = pkg.kind.unavailable?.();
  if (unavailable) throw new Error(unavailable);
  const installError = ctx.installErrors.get(pkg.spec);
  if (installError) throw new Error(`${pkg.spec} was not installed: ${installError}`);
  if (!pkg.kind.installed(pkg.target, ctx.cacheDir))
    throw new Error(`${pkg.spec} is not installed: ${installAdvice(target.source, ctx.cacheDir)}`);
  const ready = await pkg.kind.launch(pkg.target, ctx.cacheDir);
  return { ...ready, resolved: [ready.command, ...ctx.redactArgs(ready.args)].join(' ') };
}

/** The command (the package's, or the target's own) in its containment; throws what stops it. */
function containStdio(
  target: CommandTarget | PackageTarget,
  ready: (PackageCommand & { resolved: string }) | undefined,
  ctx: PlanContext,
): StdioPlan {
  // Its download would need the network the sandbox takes away: said at once, not after --timeout.
  const pypi = ctx.sandbox ? pypiProblem(target) : undefined;
  if (pypi) throw new Error(pypi);
  const command = ready?.command ?? (target.kind === 'command' ? target.command : undefined);
  if (!command) throw new Error('no command to start');
  const args = ready?.args ?? target.args ?? [];
  // A container gets the target's env from its launch (an env file), never the engine's own.
  const env = ready?.container ? (ready.env ?? {}) : { ...ready?.env, ...target.env };
  const own: Omit<ContainOptions, 'sandbox'> = {
    ...cacheContainment(ctx.cacheDir),
    ...(ready && { readable: ready.readable }),
  };
  // A container is contained by its engine; bubblewrap would hide the engine's socket.
  const container = !!ready?.container;
  const writable = ctx.sandbox && !container ? (ctx.writable ?? []) : [];
  const contained = contain(
    { command, args, cwd: target.cwd, env },
    { sandbox: ctx.sandbox && !container, ...own, writable, shipped: shippedPaths(target) },
  );
  return {
    transport: 'stdio',
    command: contained.command,
    args: contained.args,
    env,
    spawnEnv: contained.env,
    cwd: contained.cwd,
    sandbox: container ? 'container' : contained.sandbox,
    writable: contained.sandbox === 'bubblewrap' && writable.length > 0 ? writable : undefined,
    resolved: ready?.resolved,
    digest: ready?.digest,
    fakeEnv: ready?.fakeEnv,
    cleanup: ready?.cleanup,
  };
}
