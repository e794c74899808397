/** Pinned PyPI packages, a venv per name and version (uv, else venv and pip); wheels only unless --allow-sdist. */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readBoundedTextSync } from '../io/read.js';
import { installEach, installerEnv } from './install-each.js';
import type { InstallContext, PackageKind, PackageCommand } from './package-kind.js';
import { normalizePypiName, packageUrlProblem, parsePypiSpec, type PypiSpec } from '../model/package-spec.js';
import { findPython, venvPrefix } from './python.js';
import { findExecutable } from './executables.js';
import type { PackageTarget } from '../targets/types.js';
import { boundedTail } from '../model/bounds.js';

type PypiTarget = PackageTarget<'pypi'>;

export const DEFAULT_INDEX = 'https://pypi.org/simple';
const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** Written last: an entry without it is a half install. */
const INSTALLED = '.idemscan-installed';
const SDISTS_ALLOWED_TEXT = ' (sdists allowed)';
const SDISTS_ALLOWED = / \(sdists allowed\)$/;
const withoutSlash = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url);
/** Venv files a server run without --sandbox can rewrite (a FIFO would block these synchronous reads). */
const VENV_FILE = { maxBytes: 1024 * 1024, noFollow: true };

/** Another index is another package, with its own entry, named by a hash: the index URL may hold credentials. */
function pypiKey(spec: PypiSpec, index: string | undefined): { spec: string; dir: string } {
  const name = `${normalizePypiName(spec.name)}==${spec.version}`;
  // Not `==`: `env` (the default mode's wrapper) would read a command path with `=` as an assignment.
  const dir = `${normalizePypiName(spec.name)}@${spec.version}`;
  if (index === undefined || withoutSlash(index) === DEFAULT_INDEX) return { spec: `pypi:${name}`, dir };
  const tag = createHash('sha256').update(index).digest('hex').slice(0, 16);
  // `@` is in no name or version, so `<name>@<version>@index-<tag>` is no other install's entry.
  return { spec: `pypi:${name} index:${tag}`, dir: `${dir}@index-${tag}` };
}

function pypiDir(cacheDir: string, spec: PypiSpec, index: string | undefined): string {
  return path.join(cacheDir, 'pypi', pypiKey(spec, index).dir);
}

/** The spec a target's package is installed and reported under; its own text when it does not parse (refused). */
function specOf({ package: p }: PypiTarget): string {
  const got = parsePypiSpec(p.spec);
  return 'error' in got ? `pypi:${p.spec}` : pypiKey(got, p.index).spec;
}

/** Why an index URL is not one pip may read: https, loopback http, or a file:// directory. */
const indexProblem = (url: string) => packageUrlProblem(url, true);

export interface PypiPlan {
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
      {
        command: p.uv,
        args: ['pip', 'install', '--no-config', '--quiet', '--python', py, '--index-url', p.index, ...binary, p.spec],
      },
    ];
  }
  return [
    { command: p.python, args: ['-m', 'venv', p.venv] },
    {
      command: py,
      args: [
        '-m',
        'pip',
        'install',
        '--isolated',
        '--no-input',
        '--disable-pip-version-check',
        '--no-cache-dir',
        '--quiet',
        '--index-url',
        p.index,
        ...binary,
        p.spec,
      ],
    },
  ];
}

const parsed = (t: PypiTarget): PypiSpec => {
  const got = parsePypiSpec(t.package.spec);
  if ('error' in got) throw new Error(got.error);
  return got;
};

/** Installed from the entry's own index, as the marker says: an unmarked entry may hold another index's package. */
const installed = ({ package: p }: PypiTarget, cacheDir: string) => {
  const got = parsePypiSpec(p.spec);
  if ('error' in got) return false;
  const read = readBoundedTextSync(path.join(pypiDir(cacheDir, got, p.index), INSTALLED), VENV_FILE);
  if ('error' in read) return false;
  const [said = ''] = read.text.split('\n');
  const from = said.indexOf(' from ');
  const index = from < 0 ? '' : said.slice(from + 6).replace(SDISTS_ALLOWED, '');
  return withoutSlash(index) === withoutSlash(p.index ?? DEFAULT_INDEX);
};

async function installOne(t: PypiTarget, ctx: InstallContext): Promise<string | undefined> {
  const python = findPython();
  if ('error' in python) return python.error;
  const spec = parsed(t);
  const { index = DEFAULT_INDEX } = t.package;
  const dir = pypiDir(ctx.cacheDir, spec, t.package.index);
  await rm(dir, { recursive: true, force: true });
  const uv = findExecutable('uv');
  const { execa } = await import('execa');
  const plan = {
    uv,
    python: python.executable,
    venv: path.join(dir, 'venv'),
    spec: `${spec.name}==${spec.version}`,
    index,
    allowSdist: ctx.allowSdist,
  };
  // Isolated from the user's configuration: no PIP_* or UV_* variable, no config file.
  const env = installerEnv({ PIP_CONFIG_FILE: '/dev/null', UV_NO_CONFIG: '1', PYTHONNOUSERSITE: '1' });
  for (const step of pypiInstallCommands(plan)) {
    const run = await execa(step.command, step.args, {
      reject: false,
      timeout: INSTALL_TIMEOUT_MS,
      extendEnv: false,
      env,
      stdin: 'ignore',
      cancelSignal: ctx.signal,
    });
    if (run.isCanceled) return 'interrupted';
    if (run.timedOut)
      return `${path.basename(step.command)} did not finish within ${INSTALL_TIMEOUT_MS / 60_000} minutes`;
    if (run.exitCode !== 0)
      return `${path.basename(step.command)} ${step.args.slice(0, 2).join(' ')} failed: ${boundedTail(String(run.stderr || run.message), 2000)}`;
  }
  await writeFile(
    path.join(dir, INSTALLED),
    `${plan.spec} from ${plan.index}${plan.allowSdist ? SDISTS_ALLOWED_TEXT : ''}\n`,
  );
  return undefined;
}

/** The `[console_scripts]` of the package's own dist-info, in the venv. */
function consoleScripts(venv: string, name: string): string[] {
  const want = normalizePypiName(name);
  const lib = path.join(venv, 'lib');
  const out: string[] = [];
  for (const py of safeList(lib)) {
    const site = path.join(lib, py, 'site-packages');
    for (const info of safeList(site)) {
      if (
        !info.endsWith('.dist-info') ||
        normalizePypiName(info.slice(0, info.indexOf('-') < 0 ? undefined : info.indexOf('-'))) !== want
      )
        continue;
      const read = readBoundedTextSync(path.join(site, info, 'entry_points.txt'), VENV_FILE);
      if ('error' in read) continue;
      let section = '';
      for (const raw of read.text.split('\n')) {
        const line = raw.trim();
        if (line.startsWith('[')) section = line;
        else if (section === '[console_scripts]' && line.includes('='))
          out.push(line.slice(0, line.indexOf('=')).trim());
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

async function launch(t: PypiTarget, cacheDir: string): Promise<PackageCommand> {
  const spec = parsed(t);
  const { bin } = t.package;
  const dir = pypiDir(cacheDir, spec, t.package.index);
  const venv = path.join(dir, 'venv');
  const scripts = consoleScripts(venv, spec.name);
  const chosen =
    bin ??
    scripts.find((s) => normalizePypiName(s) === normalizePypiName(spec.name)) ??
    (scripts.length === 1 ? scripts[0] : undefined);
  if (!chosen || !scripts.includes(chosen)) {
    throw new Error(
      `${t.package.spec} has no console script${bin ? ` named "${bin}"` : ' named like the package'} (has: ${scripts.join(', ') || 'none'})`,
    );
  }
  const prefix = venvPrefix(venv);
  if (typeof prefix !== 'string') throw new Error(prefix.error);
  return { command: path.join(venv, 'bin', chosen), args: t.args ?? [], readable: [dir, prefix] };
}

export const pypiKind: PackageKind<'pypi'> = {
  spec: specOf,
  problem({ package: p }) {
    const got = parsePypiSpec(p.spec);
    if ('error' in got) return got.error;
    const bad = p.index === undefined ? undefined : indexProblem(p.index);
    return bad && `index ${p.index}: ${bad}`;
  },
  installed,
  install: (targets, ctx) =>
    installEach(targets, ctx, {
      spec: specOf,
      installed,
      one: installOne,
      cleanup: (t, cacheDir) => rm(pypiDir(cacheDir, parsed(t), t.package.index), { recursive: true, force: true }),
    }),
  launch,
};
