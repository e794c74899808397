/* global fetch, AbortSignal, setTimeout */
/**
 * The registry document of each candidate, reduced to what the census uses, cached in
 * registry.json so that a rerun asks nothing (--refresh asks again). One GET per package, eight at
 * a time, through the registry npm is set to use; for a package with a bin whose document has no
 * README (this registry sends none), its tarball's README (tarball-readme.mjs).
 */
import { execFileSync } from 'node:child_process';
import { readmeEnvNames } from './readme-env.mjs';
import { tarballReadme } from './tarball-readme.mjs';

const CONCURRENCY = 8;
const MCP_SDKS = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'fastmcp', 'mcp-framework', 'mcp-use'];

function registryUrl() {
  const configured = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  return configured.endsWith('/') ? configured : `${configured}/`;
}

/** What the census reads of a packument: the latest version's manifest and the README's env names. */
function reduce(doc) {
  const version = doc['dist-tags']?.latest;
  const manifest = doc.versions?.[version];
  if (!manifest) return { error: 'no latest version' };
  const bin = typeof manifest.bin === 'string' ? { [doc.name.split('/').pop()]: manifest.bin } : (manifest.bin ?? {});
  const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  const readme = doc.readme ?? manifest.readme;
  return {
    version,
    bins: Object.keys(bin),
    tarball: manifest.dist?.tarball,
    readmeFrom: typeof readme === 'string' && readme.length > 0 ? 'registry' : undefined,
    deprecated: typeof manifest.deprecated === 'string' ? manifest.deprecated.slice(0, 300) : undefined,
    node: manifest.engines?.node,
    mcpSdk: deps.filter((d) => MCP_SDKS.includes(d)),
    description: typeof manifest.description === 'string' ? manifest.description.slice(0, 300) : undefined,
    envNames: readmeEnvNames(readme),
  };
}

async function fetchOne(base, name) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(base + name.replace('/', '%2F'), { signal: AbortSignal.timeout(60_000) });
      if (res.status === 404) return { error: 'not on the registry (404)' };
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return reduce(await res.json());
    } catch (err) {
      if (attempt === 3) return { error: String(err.message ?? err) };
      await new Promise((resolve) => setTimeout(resolve, 2000 * attempt)); // a busy registry: back off
    }
  }
}

/** Where the registry keeps a version's tarball (for documents cached before `tarball` was kept). */
const tarballUrl = (base, name, version) => `${base}${name}/-/${name.split('/').pop()}-${version}.tgz`;

/** The env names of a tarball's README, for a document that came without one. */
async function withTarballReadme(doc, url) {
  try {
    const readme = await tarballReadme(url);
    return { ...doc, readmeFrom: readme ? 'tarball' : 'none', envNames: readmeEnvNames(readme) };
  } catch (err) {
    return { ...doc, readmeFrom: `error: ${String(err.message ?? err)}` };
  }
}

/** Runs `job` on each of `items`, CONCURRENCY at a time. */
async function each(items, job) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await job(items[next++]);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const needsReadme = (doc) => !doc.error && doc.bins.length > 0 && !['registry', 'tarball', 'none'].includes(doc.readmeFrom);

/** `cached` plus a document for every name it lacks (or had an error for), with its README's env names. */
export async function fetchDocuments(names, cached) {
  const out = { ...cached };
  const todo = names.filter((n) => !out[n] || out[n].error);
  const readmes = () => names.filter((n) => out[n] && needsReadme(out[n]));
  if (!todo.length && !readmes().length) return out;
  const base = registryUrl();
  await each(todo, async (name) => (out[name] = await fetchOne(base, name)));
  await each(readmes(), async (name) => {
    const doc = out[name];
    out[name] = await withTarballReadme(doc, doc.tarball ?? tarballUrl(base, name, doc.version));
  });
  return out;
}
