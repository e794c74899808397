/**
 * Pinned PyPI packages (`name==1.2.3`): one virtual environment per name and version in the cache,
 * made with `uv` when it is on PATH, else `python3 -m venv` and that venv's pip. Wheels only unless
 * `--allow-sdist` (building an sdist runs the package's code); no user pip or uv configuration
 * (pip's isolated mode, `--no-config`); bounded in time; a failed install leaves no entry. The
 * server then runs as the console script the package names, from the venv.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { installEach, installerEnv } from './install-each.js';
import type { InstallContext, PackageKind, PackageLaunch } from './package-kind.js';
import { normalizePypiName, packageUrlProblem, parsePypiSpec, type PypiSpec } from '../model/package-spec.js';
import { findPython, venvPrefix } from './python.js';
import { findExecutable } from './sandbox.js';
import type { Target } from './types.js';
import { boundedTail } from '../model/bounds.js';

export const DEFAULT_INDEX = 'https://pypi.org/simple';
const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** Written last: an entry without it is a half install. */
const INSTALLED = '.idemscan-installed';

export function pypiDir(cacheDir: string, spec: PypiSpec): string {
  // Not `==`: `env` (the default mode's wrapper) would read a command path with `=` as an assignment.
  return path.join(cacheDir, 'pypi', `${normalizePypiName(spec.name)}@${spec.version}`);
}

/** Why an index URL is not one pip may read: https, loopback http, or a file:// directory. */
export const indexProblem = (url: string) => packageUrlProblem(url, true);

export interface PypiPlan {
  /** `uv` when it is on PATH, else pip. */
  uv?: string;
  python: string;
  venv: string;
  spec: string;
  index: string;
  allowSdist?: boolean;
}

/** The commands of one install, in order (unit-tested for both tools). */
export function pypiInstallCommands(p: PypiPlan): { command: string; args: string[] }[] {
  const binary = p.allowSdist ? [] : ['--only-binary', ':all:'];
  const py = path.join(p.venv, 'bin', 'python');
  if (p.uv) {
    return [
      { command: p.uv, args: ['venv', '--no-config', '--quiet', '--python', p.python, p.venv] },
      { command: p.uv, args: ['pip', 'install', '--no-config', '--quiet', '--python', py, '--index-url', p.index, ...binary, p.spec] },
    ];
  }
  return [
    { command: p.python, args: ['-m', 'venv', p.venv] },
    {
      command: py,
      args: ['-m', 'pip', 'install', '--isolated', '--no-input', '--disable-pip-version-check', '--no-cache-dir', '--quiet', '--index-url', p.index, ...binary, p.spec],
    },
  ];
}

const parsed = (t: Target): PypiSpec => {
  const got = parsePypiSpec(t.pypi!);
  if ('error' in got) throw new Error(got.error);
  return got;
};

const installed = (t: Target, cacheDir: string) => {
  const got = parsePypiSpec(t.pypi!);
  return !('error' in got) && existsSync(path.join(pypiDir(cacheDir, got), INSTALLED));
};

async function installOne(t: Target, ctx: InstallContext): Promise<string | undefined> {
  const python = findPython();
  if ('error' in python) return python.error;
  const spec = parsed(t);
  const dir = pypiDir(ctx.cacheDir, spec);
  await rm(dir, { recursive: true, force: true });
  const uv = findExecutable('uv');
  const { execa } = await import('execa');
  const plan = { uv, python: python.executable, venv: path.join(dir, 'venv'), spec: `${spec.name}==${spec.version}`, index: t.index ?? DEFAULT_INDEX, allowSdist: ctx.allowSdist };
  // Isolated from the user's configuration: no PIP_* or UV_* variable, no config file.
  const env = installerEnv({ PIP_CONFIG_FILE: '/dev/null', UV_NO_CONFIG: '1', PYTHONNOUSERSITE: '1' });
  for (const step of pypiInstallCommands(plan)) {
    const run = await execa(step.command, step.args, { reject: false, timeout: INSTALL_TIMEOUT_MS, extendEnv: false, env, stdin: 'ignore', cancelSignal: ctx.signal });
    if (run.isCanceled) return 'interrupted';
    if (run.timedOut) return `${path.basename(step.command)} did not finish within ${INSTALL_TIMEOUT_MS / 60_000} minutes`;
    if (run.exitCode !== 0) return `${path.basename(step.command)} ${step.args.slice(0, 2).join(' ')} failed: ${boundedTail(String(run.stderr || run.message), 2000)}`;
  }
  await writeFile(path.join(dir, INSTALLED), `${plan.spec} from ${plan.index}${plan.allowSdist ? ' (sdists allowed)' : ''}\n`);
  return undefined;
}

/** The `[console_scripts]` of the package's own dist-info, in the venv. */
export function consoleScripts(venv: string, name: string): string[] {
  const want = normalizePypiName(name);
  const lib = path.join(venv, 'lib');
  const out: string[] = [];
  for (const py of safeList(lib)) {
    const site = path.join(lib, py, 'site-packages');
    for (const info of safeList(site)) {
      if (!info.endsWith('.dist-info') || normalizePypiName(info.slice(0, info.indexOf('-') < 0 ? undefined : info.indexOf('-'))) !== want) continue;
      let text = '';
      try {
        text = readFileSync(path.join(site, info, 'entry_points.txt'), 'utf8');
      } catch {
        continue;
      }
      let section = '';
      for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (line.startsWith('[')) section = line;
        else if (section === '[console_scripts]' && line.includes('=')) out.push(line.slice(0, line.indexOf('=')).trim());
      }
    }
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

async function launch(t: Target, cacheDir: string): Promise<PackageLaunch> {
  const spec = parsed(t);
  const dir = pypiDir(cacheDir, spec);
  const venv = path.join(dir, 'venv');
  const scripts = consoleScripts(venv, spec.name);
  const chosen = t.bin ?? scripts.find((s) => normalizePypiName(s) === normalizePypiName(spec.name)) ?? (scripts.length === 1 ? scripts[0] : undefined);
  if (!chosen || !scripts.includes(chosen)) {
    throw new Error(`${t.pypi} has no console script${t.bin ? ` named "${t.bin}"` : ' named like the package'} (has: ${scripts.join(', ') || 'none'})`);
  }
  const prefix = venvPrefix(venv);
  if (typeof prefix !== 'string') throw new Error(prefix.error);
  return { command: path.join(venv, 'bin', chosen), args: t.args ?? [], readable: [dir, prefix] };
}

export const pypiKind: PackageKind = {
  spec: (t) => (t.pypi === undefined ? undefined : `pypi:${t.pypi}`),
  problem(t) {
    const got = parsePypiSpec(t.pypi!);
    if ('error' in got) return got.error;
    const bad = t.index === undefined ? undefined : indexProblem(t.index);
    return bad && `index ${t.index}: ${bad}`;
  },
  installed,
  install: (targets, ctx) =>
    installEach(targets, ctx, {
      spec: (t) => `pypi:${t.pypi}`,
      installed,
      one: installOne,
      cleanup: (t, cacheDir) => rm(pypiDir(cacheDir, parsed(t)), { recursive: true, force: true }),
    }),
  launch,
};
