/** `.mcpb` bundles: downloaded, checked against their sha256 before unpacking (zip.ts), run as `mcp_config` says. */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fetchBody, type RedirectPolicy } from '../io/fetch.js';
import { within } from './bwrap.js';
import { installEach } from './install-each.js';
import type { McpbManifest } from './mcpb-manifest.js';
import type { InstallContext, PackageKind, PackageCommand } from './package-kind.js';
import { packageUrlProblem, SHA256 } from '../model/package-spec.js';
import { findPython } from './python.js';
import type { PackageTarget } from '../targets/types.js';
import { readZip, ZipError } from './zip.js';

type McpbTarget = PackageTarget<'mcpb'>;

const MCPB_LIMITS = {
  maxDownloadBytes: 128 * 1024 * 1024,
  maxEntries: 20_000,
  maxUnpackedBytes: 512 * 1024 * 1024,
};
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
const MAX_REDIRECTS = 5;

function mcpbDir(cacheDir: string, sha256: string): string {
  return path.join(cacheDir, 'mcpb', sha256);
}

const installed = (t: McpbTarget, cacheDir: string) =>
  SHA256.test(t.package.sha256) && existsSync(path.join(mcpbDir(cacheDir, t.package.sha256), 'manifest.json'));

/** A redirect is followed only to a URL a bundle may be downloaded from, at most MAX_REDIRECTS times. */
const BUNDLE_REDIRECTS: RedirectPolicy = {
  follow(location, from, hop) {
    if (hop > MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, from);
    const problem = packageUrlProblem(next.href);
    if (problem) throw new Error(`redirected to ${next.href}: ${problem}`);
    return next;
  },
};

/** Downloaded within the size bound and checked against its sha256, or why not. */
async function verified(t: McpbTarget, ctx: InstallContext): Promise<Buffer | string> {
  const { url, sha256 } = t.package;
  const problem = packageUrlProblem(url);
  if (problem) return problem;
  const max = MCPB_LIMITS.maxDownloadBytes;
  const got = await fetchBody(url, {
    maxBytes: max,
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
    redirects: BUNDLE_REDIRECTS,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  // No URL in the words: they are shown beside other entries that pin the hash, whose reports do not redact it.
  if (!got.ok) {
    if (got.why === 'interrupted') return 'interrupted';
    if (got.why === 'timeout') return `no download within ${DOWNLOAD_TIMEOUT_MS / 60_000} minutes`;
    if (got.why === 'status') return `download failed: HTTP ${got.status}`;
    if (got.why === 'too-large')
      return got.declared === undefined
        ? `the bundle is more than the ${max} bytes allowed`
        : `the bundle is ${got.declared} bytes, more than the ${max} allowed`;
    return got.error.message;
  }
  // Before anything is unpacked: a bundle whose bytes are not the ones the entry pins is not opened.
  const digest = createHash('sha256').update(got.bytes).digest('hex');
  return digest === sha256
    ? got.bytes
    : `sha256 mismatch: the entry pins ${sha256}, the download is ${digest}; nothing was unpacked`;
}

async function installOne(t: McpbTarget, ctx: InstallContext): Promise<string | undefined> {
  const bytes = await verified(t, ctx);
  if (typeof bytes === 'string') return bytes;
  const final = mcpbDir(ctx.cacheDir, t.package.sha256);
  const tmp = `${final}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    const entries = readZip(bytes, MCPB_LIMITS);
    const manifest = entries.find((e) => e.name === 'manifest.json');
    if (!manifest) return 'the bundle has no manifest.json';
    const { parseManifest } = await import('./mcpb-manifest.js');
    const checked = parseManifest(manifest.data().toString('utf8'));
    if ('error' in checked) return checked.error;
    await mkdir(tmp, { recursive: true, mode: 0o755 });
    for (const e of entries) {
      const to = path.join(tmp, e.name);
      if (e.directory) await mkdir(to, { recursive: true });
      else {
        await mkdir(path.dirname(to), { recursive: true });
        // `wx`: an entry never writes through something an earlier one made.
        await writeFile(to, e.data(), { flag: 'wx', mode: e.executable ? 0o755 : 0o644 });
      }
    }
    await rename(tmp, final);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    // Another process renamed the same verified bytes into place first: installed all the same.
    if (installed(t, ctx.cacheDir)) return undefined;
    if (err instanceof ZipError) return `refused to unpack: ${err.message}`;
    throw err;
  }
  return undefined;
}

/** Where `mcp_config` (with the linux override) says the server starts, filled in. */
export function bundleLaunch(
  dir: string,
  manifest: McpbManifest,
  env: Record<string, string> = {},
): PackageCommand & { fakeEnv: string[] } {
  const base = manifest.server.mcp_config;
  const over = base.platform_overrides?.linux;
  const config = {
    command: over?.command ?? base.command,
    args: over?.args ?? base.args ?? [],
    env: { ...base.env, ...over?.env },
  };
  const { fake, fill } = substitute(dir, manifest, env);
  const command = fill(config.command);
  const args = config.args.map(fill);
  const launchEnv = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, fill(v)]));
  const readable = [dir];
  let resolved = command;
  if (command === 'node' || command === 'nodejs') resolved = process.execPath;
  else if (command === 'python' || command === 'python3') {
    const python = findPython();
    if ('error' in python) throw new Error(python.error);
    resolved = python.executable;
    readable.push(python.prefix);
  } else if (command.includes('/')) {
    const real = existsSync(command) ? realpathSync(command) : path.resolve(dir, command);
    if (!within(real, realpathSync(dir))) throw new Error(`the bundle's command ${command} is outside the bundle`);
    resolved = real;
  }
  return { command: resolved, args, env: launchEnv, readable, fakeEnv: fake };
}

async function launch(t: McpbTarget, cacheDir: string): Promise<PackageCommand> {
  const dir = mcpbDir(cacheDir, t.package.sha256);
  const { readManifest } = await import('./mcpb-manifest.js');
  const checked = await readManifest(dir);
  if ('error' in checked) throw new Error(checked.error);
  const l = bundleLaunch(dir, checked.manifest, t.env);
  return { ...l, args: [...l.args, ...(t.args ?? [])] };
}

const PATTERN = /\$\{([^}]{1,200})\}/g;

/** Fills `${__dirname}` and `${user_config.KEY}`: a non-secret default, else a named fake, never the user's. */
function substitute(dir: string, manifest: McpbManifest, env: Record<string, string> = {}) {
  const fake: string[] = [];
  const values = new Map<string, string>();
  for (const [key, spec] of Object.entries(manifest.user_config ?? {})) {
    const given = Object.hasOwn(env, key) ? env[key] : undefined;
    const fallback =
      spec.default === undefined || spec.sensitive
        ? undefined
        : Array.isArray(spec.default)
          ? spec.default.join(',')
          : String(spec.default);
    if (given !== undefined) values.set(key, given);
    else if (fallback !== undefined && !fallback.includes('${')) values.set(key, fallback);
    else if (spec.required || spec.sensitive) {
      values.set(key, `idemscan-fake-${key.toLowerCase()}`);
      fake.push(`user_config.${key}`);
    } else values.set(key, '');
  }
  const fill = (text: string) =>
    text.replace(PATTERN, (whole, name: string) => {
      if (name === '__dirname') return dir;
      const value = name.startsWith('user_config.') ? values.get(name.slice(12)) : undefined;
      return value ?? whole;
    });
  return { values, fake, fill };
}

export const mcpbKind: PackageKind<'mcpb'> = {
  spec: (t) => `mcpb:sha256:${t.package.sha256}`,
  problem(t) {
    if (!t.package.sha256)
      return `no sha256 for ${t.package.url}: a bundle is downloaded only to be checked against one`;
    if (!SHA256.test(t.package.sha256))
      return `sha256 ${JSON.stringify(t.package.sha256.slice(0, 80))} is not 64 lowercase hex digits`;
    return packageUrlProblem(t.package.url);
  },
  installed,
  install: (targets, ctx) =>
    installEach(targets, ctx, {
      spec: (t) => `mcpb:sha256:${t.package.sha256}`,
      // The bytes are checked against the spec, so every distinct URL of one hash is a source worth trying.
      source: (t) => t.package.url,
      installed,
      one: installOne,
      cleanup: async () => {}, // the entry appears by rename only when complete
    }),
  launch,
};
