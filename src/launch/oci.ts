/** Pinned OCI images, run by docker or podman with no network, capabilities or pull at run time (SANDBOX.md). */
// The target's env goes in an env file, never the engine CLI's environment (a `DOCKER_HOST` would steer it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readBoundedText } from '../io/read.js';
import { installEach, installerEnv } from './install-each.js';
import type { InstallContext, PackageKind, PackageCommand } from './package-kind.js';
import { parseOciRef } from '../model/package-spec.js';
import { findExecutable } from './executables.js';
import type { PackageTarget } from '../targets/types.js';
import { bounded, boundedTail } from '../model/bounds.js';

type OciTarget = PackageTarget<'oci'>;

const PULL_TIMEOUT_MS = 20 * 60_000;
const ENGINES = ['docker', 'podman'] as const;
type Engine = (typeof ENGINES)[number];

/** The flags of every run: the container is the server's whole containment. */
const RUN_FLAGS = [
  '--rm',
  '-i',
  '--init',
  '--pull',
  'never',
  '--network',
  'none',
  '--security-opt',
  'no-new-privileges',
  '--cap-drop',
  'ALL',
  '--read-only',
  '--cpus',
  '1',
  '--memory',
  '2g',
];

export function ociRunArgs(image: string, envFile: string | undefined, args: string[]): string[] {
  return ['run', ...RUN_FLAGS, ...(envFile ? ['--env-file', envFile] : []), image, ...args];
}

/** No control character (C0, DEL, C1), `=` or whitespace (docker refuses it, podman trims it), no leading `#` (a comment). */
const plainEnvName = (name: string) => /^[^\s=#\p{Cc}][^\s=\p{Cc}]*$/u.test(name);

/** One `NAME=value` line per variable, read as is: a name or value that would break the line is refused. */
export async function writeEnvFile(
  env: Record<string, string>,
): Promise<{ file: string; remove: () => Promise<void> } | undefined> {
  const entries = Object.entries(env);
  if (entries.length === 0) return undefined;
  // A bare `NAME` line copies the engine's own value (a registry credential) into the container.
  const badName = entries.find(([k]) => !plainEnvName(k));
  if (badName)
    throw new Error(
      `env ${JSON.stringify(bounded(badName[0], 100))}: not a plain environment variable name (empty, starting with "#", or with "=", whitespace or a control character); it cannot be passed to a container`,
    );
  const broken = entries.find(([, v]) => /[\r\n\0]/.test(v));
  if (broken)
    throw new Error(`env ${broken[0].slice(0, 100)}: a value with a line break or NUL cannot be passed to a container`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'idemscan-env-'));
  const file = path.join(dir, 'env');
  await writeFile(file, entries.map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600, flag: 'wx' });
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

function ociDir(cacheDir: string, ref: string): string {
  return path.join(cacheDir, 'oci', ref.replace(/[/:@]/g, '+'));
}

let engine: { name: Engine; path: string } | { error: string } | undefined;

/** The first engine whose daemon (or runtime) answers, once per process; else why none does. */
export function findEngine(): { name: Engine; path: string } | { error: string } {
  if (engine) return engine;
  const tried: string[] = [];
  for (const name of ENGINES) {
    const found = findExecutable(name);
    if (!found) continue;
    const run = spawnSync(found, ['info', '--format', '{{json .}}'], {
      encoding: 'utf8',
      timeout: 15_000,
      env: engineEnv(),
    });
    if (run.status === 0) return (engine = { name, path: found });
    tried.push(`${name}: ${lastLine(run.error ? String(run.error.message) : String(run.stderr || run.stdout))}`);
  }
  engine = {
    error: `no container engine works on this machine (${tried.length ? tried.join('; ') : 'neither docker nor podman is on PATH'}): OCI servers need docker or podman`,
  };
  return engine;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter(Boolean);
  return (lines.at(-1) ?? 'failed').slice(0, 300);
}

/** The engine's own settings (which daemon, which config) besides the basics. */
function engineEnv(extra: Record<string, string> = {}): Record<string, string> {
  const own = Object.entries(process.env).filter(
    ([k, v]) => v !== undefined && /^(?:DOCKER_[A-Z_]+|CONTAINER_HOST|CONTAINERS_[A-Z_]+|XDG_RUNTIME_DIR)$/.test(k),
  ) as [string, string][];
  return { ...installerEnv(), ...Object.fromEntries(own), ...extra };
}

const digestFile = (cacheDir: string, t: OciTarget) => path.join(ociDir(cacheDir, t.package.ref), 'digest');
const installed = (t: OciTarget, cacheDir: string) => existsSync(digestFile(cacheDir, t));

async function installOne(t: OciTarget, ctx: InstallContext): Promise<string | undefined> {
  const found = findEngine();
  if ('error' in found) return found.error;
  const { execa } = await import('execa');
  const opts = {
    reject: false,
    timeout: PULL_TIMEOUT_MS,
    extendEnv: false,
    env: engineEnv(),
    stdin: 'ignore',
    cancelSignal: ctx.signal,
  } as const;
  const pull = await execa(found.path, ['pull', t.package.ref], opts);
  if (pull.isCanceled) return 'interrupted';
  if (pull.exitCode !== 0)
    return `${found.name} pull failed: ${boundedTail(String(pull.stderr || pull.message), 1000)}`;
  const inspect = await execa(
    found.path,
    ['image', 'inspect', '--format', '{{json .RepoDigests}}', t.package.ref],
    opts,
  );
  let digest: string | undefined;
  try {
    digest = (JSON.parse(String(inspect.stdout)) as string[]).find((d) => d.includes('@sha256:'));
  } catch {
    digest = undefined;
  }
  if (!digest) return `${found.name} pulled ${t.package.ref} but names no digest for it`;
  await mkdir(path.dirname(digestFile(ctx.cacheDir, t)), { recursive: true });
  await writeFile(digestFile(ctx.cacheDir, t), `${digest}\n`);
  return undefined;
}

async function launch(t: OciTarget, cacheDir: string): Promise<PackageCommand> {
  const found = findEngine();
  if ('error' in found) throw new Error(found.error);
  // Written at install; a server run without --sandbox may have put a FIFO or a huge file there.
  const read = await readBoundedText(digestFile(cacheDir, t), { maxBytes: 4096, noFollow: true });
  if ('error' in read) throw new Error(`${digestFile(cacheDir, t)}: ${read.error}`);
  const digest = read.text.trim();
  // The digest recorded at install, so that a re-tagged image is not what runs.
  const image = digest.includes('@sha256:') ? digest : t.package.ref;
  const own = Object.fromEntries(Object.entries(engineEnv()).filter(([k]) => !/^(?:PATH|HOME)$/.test(k)));
  const envFile = await writeEnvFile(t.env ?? {});
  const args = ociRunArgs(image, envFile?.file, t.args ?? []);
  return { command: found.path, args, env: own, readable: [], digest, container: true, cleanup: envFile?.remove };
}

export const ociKind: PackageKind<'oci'> = {
  spec: (t) => `oci:${t.package.ref}`,
  problem(t) {
    const got = parseOciRef(t.package.ref);
    return 'error' in got ? got.error : undefined;
  },
  unavailable: () => {
    const found = findEngine();
    return 'error' in found ? found.error : undefined;
  },
  installed,
  install: (targets, ctx) =>
    installEach(targets, ctx, {
      spec: (t) => `oci:${t.package.ref}`,
      installed,
      one: installOne,
      cleanup: (t, cacheDir) => rm(ociDir(cacheDir, t.package.ref), { recursive: true, force: true }),
    }),
  launch,
};
