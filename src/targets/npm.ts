/**
 * Pinned npm packages as targets: installed once into a cache, then launched with `node` on the
 * package's bin file directly. No `npx` at scan time means no network to start a server and no
 * wrapper process between us and the server.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import pLimit from 'p-limit';
import type { Target } from './types.js';

export function defaultCacheDir(): string {
  return process.env.IDEMSCAN_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'idemscan');
}

export function splitSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@');
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

function packageDir(cacheDir: string, spec: string): string {
  return path.join(cacheDir, 'npm', spec.replace(/\//g, '+'));
}

function installedPackageJson(cacheDir: string, spec: string): string {
  return path.join(packageDir(cacheDir, spec), 'node_modules', splitSpec(spec).name, 'package.json');
}

export function isInstalled(cacheDir: string, spec: string): boolean {
  return existsSync(installedPackageJson(cacheDir, spec));
}

export interface InstallResult {
  spec: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/** Installs each distinct pinned package once, in parallel under a limit. */
export async function installPackages(specs: string[], cacheDir: string, concurrency = 4): Promise<InstallResult[]> {
  const limit = pLimit(concurrency);
  return Promise.all(
    [...new Set(specs)].map((spec) =>
      limit(async (): Promise<InstallResult> => {
        const started = performance.now();
        if (isInstalled(cacheDir, spec)) return { spec, ok: true, ms: 0 };
        const dir = packageDir(cacheDir, spec);
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, 'package.json'), JSON.stringify({ private: true, name: 'idemscan-cache-entry' }));
        const run = await execa(
          'npm',
          ['install', '--no-audit', '--no-fund', '--no-package-lock', '--omit=dev', '--loglevel=error', spec],
          // Package install scripts run with this environment: only what npm needs, none of the
          // user's secrets (npm_config_* settings such as a registry or proxy are kept).
          { cwd: dir, reject: false, timeout: 10 * 60_000, extendEnv: false, env: npmEnv() },
        );
        const ms = Math.round(performance.now() - started);
        if (run.exitCode !== 0 || !isInstalled(cacheDir, spec)) {
          return { spec, ok: false, ms, error: String(run.stderr || run.message).slice(-2000) };
        }
        return { spec, ok: true, ms };
      }),
    ),
  );
}

function npmEnv(): Record<string, string> {
  const keep = Object.entries(process.env).filter(
    ([k, v]) => v !== undefined && (/^(?:PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|SystemRoot|ComSpec|APPDATA|LOCALAPPDATA|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i.test(k) || /^npm_config_/i.test(k)),
  ) as [string, string][];
  return { ...Object.fromEntries(keep), npm_config_update_notifier: 'false', PUPPETEER_SKIP_DOWNLOAD: '1' };
}

/** The command that starts an installed package's bin with the current Node. */
export async function resolveNpmLaunch(target: Target, cacheDir: string): Promise<{ command: string; args: string[] }> {
  const spec = target.npm!;
  const pkgJsonPath = installedPackageJson(cacheDir, spec);
  const pkg = JSON.parse(await readFile(pkgJsonPath, 'utf8')) as { name: string; bin?: string | Record<string, string> };
  const bins = typeof pkg.bin === 'string' ? { [unscoped(pkg.name)]: pkg.bin } : (pkg.bin ?? {});
  const names = Object.keys(bins);
  const chosen = target.bin ?? (names.includes(unscoped(pkg.name)) ? unscoped(pkg.name) : names[0]);
  const file = chosen ? bins[chosen] : undefined;
  if (!file) {
    throw new Error(`${spec} has no bin${target.bin ? ` named "${target.bin}"` : ''} (has: ${names.join(', ') || 'none'})`);
  }
  const binPath = path.resolve(path.dirname(pkgJsonPath), file);
  const head = await readFile(binPath, 'utf8').then((t) => t.slice(0, 200), () => '');
  const isNode = /\.[cm]?js$/.test(binPath) || /^#!.*\bnode\b/.test(head);
  return isNode
    ? { command: process.execPath, args: [binPath, ...(target.args ?? [])] }
    : { command: binPath, args: target.args ?? [] };
}

function unscoped(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}
