/** A package's install scripts, which its target declares: run by `pnpm rebuild` in the sandbox, in a part not yet published. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BASE_ENV } from './npm-cache.js';
import { npmLines } from './npm-errors.js';
import { pnpmPackageDir, pnpmRebuildArgs } from './pnpm.js';
import { contain, type SandboxMode } from './sandbox.js';
import { boundedTail } from '../model/bounds.js';

export interface ScriptsRun {
  mode?: SandboxMode;
  error?: string;
}

/** In the sandbox: no network, only the entry writable, no npm auth tokens, proxy credentials or npmrc. */
export async function runScripts(dir: string, hidden: string[], signal?: AbortSignal): Promise<ScriptsRun> {
  let launch;
  try {
    launch = contain(
      { command: process.execPath, args: pnpmRebuildArgs(), cwd: dir, env: scriptEnv(dir) },
      { sandbox: true, writable: [dir], readable: [pnpmPackageDir()], hidden },
    );
  } catch (err) {
    return { error: `install scripts need a sandbox: ${(err as Error).message}` };
  }
  const { execa } = await import('execa');
  const run = await execa(launch.command, launch.args, {
    cwd: dir,
    reject: false,
    timeout: 10 * 60_000,
    extendEnv: false,
    env: launch.env,
    stdin: 'ignore',
    cancelSignal: signal,
  });
  if (run.exitCode !== 0)
    return {
      mode: launch.sandbox,
      error: `install scripts failed: ${boundedTail(npmLines(boundedTail(String(run.stderr || run.message), 4000)).join('\n'), 2000)}`,
    };
  return { mode: launch.sandbox };
}

/** No npm_config_* (tokens), no proxy variables (credentials), no npmrc, whose values pnpm exports to scripts. */
function scriptEnv(dir: string): Record<string, string> {
  const keep = Object.entries(process.env).filter(([k, v]) => v !== undefined && BASE_ENV.test(k)) as [
    string,
    string,
  ][];
  return {
    ...Object.fromEntries(keep),
    // Files that do not exist: pnpm and npm read no config from them.
    npm_config_userconfig: path.join(dir, '.no-user-npmrc'),
    npm_config_globalconfig: path.join(dir, '.no-global-npmrc'),
    npm_config_update_notifier: 'false',
    PUPPETEER_SKIP_DOWNLOAD: '1',
    ...nodeHeaders(),
  };
}

/** node-gyp downloads the running Node's headers unless told where they are; the scripts have no network. */
export function nodeHeaders(execPath = process.execPath): { npm_config_nodedir?: string } {
  const prefix = path.dirname(path.dirname(execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? { npm_config_nodedir: prefix } : {};
}
