/** The cache layout npm.ts, npm-entry.ts and npm-launch.ts share, so none imports another for it. */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A pinned `pkg@1.2.3` or `@scope/pkg@1.2.3` as its name and version, split at its last `@`. */
export function splitSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@');
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

export function packageDir(cacheDir: string, spec: string): string {
  return path.join(cacheDir, 'npm', spec.replace(/\//g, '+'));
}

export function installedPackageJson(cacheDir: string, spec: string): string {
  return path.join(packageDir(cacheDir, spec), 'node_modules', splitSpec(spec).name, 'package.json');
}

/** Written once a package's install scripts have run (only for targets that declare them). */
export const SCRIPTS_RAN = '.idemscan-scripts-ran';

export function isInstalled(cacheDir: string, spec: string, withScripts = false): boolean {
  return (
    existsSync(installedPackageJson(cacheDir, spec)) &&
    (!withScripts || existsSync(path.join(packageDir(cacheDir, spec), SCRIPTS_RAN)))
  );
}

/** npm reads the .npmrc of the nearest package.json dir: ours, never a repository's (it could pick the registry). */
export async function ownNpmProject(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ private: true, name: 'idemscan-cache-entry' }));
}

export const BASE_ENV =
  /^(?:PATH|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|SystemRoot|ComSpec|APPDATA|LOCALAPPDATA|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;

/** For npm itself (installs, `npm view`): the user's npm settings and nothing else. */
export function npmEnv(): Record<string, string> {
  const keep = Object.entries(process.env).filter(
    ([k, v]) =>
      v !== undefined && (BASE_ENV.test(k) || /^(?:HTTPS?_PROXY|NO_PROXY)$/i.test(k) || /^npm_config_/i.test(k)),
  ) as [string, string][];
  return { ...Object.fromEntries(keep), npm_config_update_notifier: 'false', PUPPETEER_SKIP_DOWNLOAD: '1' };
}
