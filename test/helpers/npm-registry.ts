/**
 * An npm registry on 127.0.0.1 that serves fixture packages (test/fixtures/packages), so that
 * tests install by package name, as `npx -y pkg@1.0.0` in a client config asks, without the public
 * registry. Point npm at it with `registryEnv()`. Each version is the fixture directory packed with
 * that version in its package.json.
 */
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export interface FixturePackage {
  /** The fixture's directory; its package.json gives the name. */
  dir: string;
  versions: string[];
  /** The `latest` dist-tag (default: the last of `versions`). */
  latest?: string;
  /** Fields of one version's package.json over the fixture's (its engines, its dependencies). */
  fields?: Record<string, Record<string, unknown>>;
}

export interface LocalRegistry {
  url: string;
  /** Paths asked for, in order (a test can see that npm came here). */
  requests: string[];
  /** Holds each tarball answer back this long (a slow download). */
  tarballDelayMs: number;
  /** The environment for npm (and idemscan's installs): this registry, an empty npm cache. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startRegistry(packages: FixturePackage[]): Promise<LocalRegistry> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'idemscan-registry-'));
  const docs = new Map<string, Record<string, unknown>>();
  const tarballs = new Map<string, Buffer>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  for (const pkg of packages) {
    const manifest = JSON.parse(readFileSync(path.join(pkg.dir, 'package.json'), 'utf8')) as Record<string, unknown> & {
      name: string;
    };
    const versions: Record<string, unknown> = {};
    for (const version of pkg.versions) {
      const copy = path.join(work, `${manifest.name.replace('/', '+')}-${version}`);
      cpSync(pkg.dir, copy, { recursive: true });
      const own = { ...manifest, ...pkg.fields?.[version], version };
      writeFileSync(path.join(copy, 'package.json'), JSON.stringify(own));
      const packed = await execa('npm', ['pack', copy, '--pack-destination', work, '--silent'], {
        env: { npm_config_update_notifier: 'false' },
      });
      const data = readFileSync(path.join(work, packed.stdout.trim().split('\n').pop()!));
      const file = `${manifest.name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
      tarballs.set(`/${manifest.name}/-/${file}`, data);
      versions[version] = {
        ...own,
        dist: {
          tarball: `${url}/${manifest.name}/-/${file}`,
          shasum: createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
        },
      };
    }
    docs.set(`/${manifest.name}`, {
      name: manifest.name,
      'dist-tags': { latest: pkg.latest ?? pkg.versions.at(-1) },
      versions,
    });
  }

  const registry: LocalRegistry = {
    url,
    requests: [],
    tarballDelayMs: 0,
    env: () => ({
      npm_config_registry: `${url}/`,
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_fetch_retries: '0',
      npm_config_audit: 'false',
    }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    const at = decodeURIComponent(new URL(req.url ?? '/', url).pathname);
    registry.requests.push(at);
    const doc = docs.get(at);
    if (doc) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    const tarball = tarballs.get(at);
    if (!tarball) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball),
      registry.tarballDelayMs,
    );
  });
  return registry;
}

/**
 * Points idemscan's own installs, which take the user's npm settings from the environment (npmEnv),
 * at the registry; the function returned puts the environment back.
 */
export function pointInstallsAt(registry: LocalRegistry): () => void {
  const env = registry.env();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
