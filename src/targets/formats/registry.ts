/**
 * MCP registry `server.json` documents (one, a list of them, or the registry's list response
 * `{servers: [{server, _meta}]}`). npm packages become `npm` targets with their declared
 * arguments; remotes become HTTP targets. Secrets the package asks for get obvious fake values,
 * named in the target (`fakeEnv`) so the report can say so. Other package types, and npm packages
 * whose version is a range or a tag (`^1.2.0`, `latest`), are skipped with the reason: a scan runs
 * pinned packages only. Skip reasons name the field (`servers[3].server.packages[0].version`).
 */
import type { LoadedTargets, Target } from '../types.js';
import type { FormatContext, TargetFormat } from './format.js';

interface Arg {
  type?: string;
  name?: string;
  value?: string;
  default?: string;
  isRequired?: boolean;
}
interface KeyValue {
  name?: string;
  value?: string;
  default?: string;
  isRequired?: boolean;
  isSecret?: boolean;
}
interface Pkg {
  registryType?: string;
  registry_name?: string;
  identifier?: string;
  name?: string;
  version?: string;
  packageArguments?: Arg[];
  environmentVariables?: KeyValue[];
  transport?: { type?: string };
}
interface Remote {
  type?: string;
  transport_type?: string;
  url?: string;
  headers?: KeyValue[];
}
interface ServerJson {
  name?: string;
  version?: string;
  packages?: Pkg[];
  remotes?: Remote[];
}

/** An exact semver version: `1.2.3`, `1.2.3-beta.1`, `1.2.3+build`; not `^1.2.0`, `1.x`, `>=1`, `latest`. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[\da-z.-]+)?(?:\+[\da-z.-]+)?$/i;
/** A value with a `{placeholder}` the client is meant to fill in. */
const TEMPLATE = /\{[^{}]+\}/;
const PLACEHOLDER = 'idemscan-placeholder';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isServerJson = (v: unknown): v is ServerJson =>
  isObj(v) && typeof v.name === 'string' && (Array.isArray(v.packages) || Array.isArray(v.remotes));

const isListResponse = (v: Record<string, unknown>): v is { servers: { server: unknown }[] } =>
  Array.isArray(v.servers) && v.servers.length > 0 && v.servers.every((s) => isObj(s) && isObj(s.server));

export const registryFormat: TargetFormat = {
  id: 'registry',
  detect: (doc) => isServerJson(doc) || isListResponse(doc),
  read(doc, ctx) {
    const list = isListResponse(doc) ? doc.servers.map((s) => s.server) : [doc];
    const out: LoadedTargets = { targets: [], skipped: [] };
    list.forEach((server, i) => {
      if (!isServerJson(server)) {
        out.skipped.push({ name: `servers[${i}]`, source: ctx.file, reason: `servers[${i}].server: not a server.json` });
        return;
      }
      readServer(server, ctx, out, isListResponse(doc) ? `servers[${i}].server.` : '');
    });
    return out;
  },
};

/** `at` prefixes the fields named in skip reasons: `servers[3].server.` in a list response. */
function readServer(server: ServerJson, ctx: FormatContext, out: LoadedTargets, at: string): void {
  const base = server.name!;
  (server.packages ?? []).forEach((pkg, i) => {
    const type = pkg.registryType ?? pkg.registry_name;
    const name = (server.packages!.length > 1 ? `${base}#${type}` : base) + (i > 0 ? `-${i}` : '');
    const id = pkg.identifier ?? pkg.name;
    if (type !== 'npm') {
      out.skipped.push({ name, source: ctx.file, reason: `${at}packages[${i}]: registry type "${type}" is not launched by idemscan (npm only)` });
      return;
    }
    if (!id || !pkg.version) {
      out.skipped.push({ name, source: ctx.file, reason: `${at}packages[${i}]: npm package without identifier or version` });
      return;
    }
    if (typeof pkg.version !== 'string' || !EXACT_VERSION.test(pkg.version)) {
      const version = JSON.stringify(pkg.version).slice(0, 80);
      out.skipped.push({ name, source: ctx.file, reason: `${at}packages[${i}].version: ${version} is not an exact version (unpinned); idemscan launches pinned packages only` });
      return;
    }
    if (pkg.transport?.type && pkg.transport.type !== 'stdio') {
      out.skipped.push({ name, source: ctx.file, reason: `${at}packages[${i}].transport: "${pkg.transport.type}" packages need a URL; only stdio is launched` });
      return;
    }
    const { values: env, fake } = fill(pkg.environmentVariables ?? []);
    out.targets.push({
      name,
      source: `${ctx.file}#${base}.packages[${i}]`,
      transport: 'stdio',
      npm: `${id}@${pkg.version}`,
      args: args(pkg.packageArguments ?? []),
      env,
      fakeEnv: fake,
    });
  });
  (server.remotes ?? []).forEach((remote, i) => {
    const name = `${base}#remote${i > 0 ? `-${i}` : ''}`;
    const type = remote.type ?? remote.transport_type;
    if (!remote.url || /[{}]/.test(remote.url) || !URL.canParse(remote.url)) {
      out.skipped.push({ name, source: ctx.file, reason: `${at}remotes[${i}].url: missing, templated or not a URL` });
      return;
    }
    const { values: headers, fake } = fill(remote.headers ?? []);
    out.targets.push({
      name,
      source: `${ctx.file}#${base}.remotes[${i}]`,
      transport: type === 'sse' ? 'sse' : 'http',
      url: remote.url,
      headers,
      fakeEnv: fake,
    } satisfies Target);
  });
}

function fill(vars: KeyValue[]): { values: Record<string, string>; fake: string[] } {
  const values: Record<string, string> = {};
  const fake: string[] = [];
  for (const v of vars) {
    if (!v.name) continue;
    const given = v.value ?? v.default;
    if (given !== undefined && !TEMPLATE.test(given)) values[v.name] = given;
    else if (v.isRequired || v.isSecret) {
      values[v.name] = `idemscan-fake-${v.name.toLowerCase()}`;
      fake.push(v.name);
    }
  }
  return { values, fake };
}

/**
 * Command-line arguments: `value`, else `default`, skipping either when it is a template (`{dir}`);
 * a required argument with neither gets a placeholder, an optional one is left out.
 */
function args(list: Arg[]): string[] {
  const out: string[] = [];
  for (const a of list) {
    const given = [a.value, a.default].find((v) => typeof v === 'string' && !TEMPLATE.test(v));
    const value = given ?? (a.isRequired ? PLACEHOLDER : undefined);
    if (a.type === 'named' && a.name) {
      if (value === undefined) continue;
      out.push(a.name, value);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}
