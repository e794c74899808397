/**
 * MCP registry `server.json` documents (one, a list of them, or the registry's list response
 * `{servers: [{server, _meta}]}`). npm packages become `npm` targets with their declared
 * arguments; remotes become HTTP targets. Secrets the package asks for get obvious fake values,
 * named in the target (`fakeEnv`) so the report can say so. Other package types are skipped.
 */
import type { LoadedTargets, Target } from '../types.js';
import type { FormatContext, TargetFormat } from './format.js';

interface Arg {
  type?: string;
  name?: string;
  value?: string;
  default?: string;
  valueHint?: string;
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
      readServer(server, ctx, out);
    });
    return out;
  },
};

function readServer(server: ServerJson, ctx: FormatContext, out: LoadedTargets): void {
  const base = server.name!;
  (server.packages ?? []).forEach((pkg, i) => {
    const type = pkg.registryType ?? pkg.registry_name;
    const name = (server.packages!.length > 1 ? `${base}#${type}` : base) + (i > 0 ? `-${i}` : '');
    const id = pkg.identifier ?? pkg.name;
    if (type !== 'npm') {
      out.skipped.push({ name, source: ctx.file, reason: `packages[${i}]: registry type "${type}" is not launched by idemscan (npm only)` });
      return;
    }
    if (!id || !pkg.version) {
      out.skipped.push({ name, source: ctx.file, reason: `packages[${i}]: npm package without identifier or version` });
      return;
    }
    if (pkg.transport?.type && pkg.transport.type !== 'stdio') {
      out.skipped.push({ name, source: ctx.file, reason: `packages[${i}].transport: "${pkg.transport.type}" packages need a URL; only stdio is launched` });
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
      out.skipped.push({ name, source: ctx.file, reason: `remotes[${i}].url: missing, templated or not a URL` });
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
    if (given !== undefined && !/\{[^}]+\}/.test(given)) values[v.name] = given;
    else if (v.isRequired || v.isSecret) {
      values[v.name] = `idemscan-fake-${v.name.toLowerCase()}`;
      fake.push(v.name);
    }
  }
  return { values, fake };
}

function args(list: Arg[]): string[] {
  const out: string[] = [];
  for (const a of list) {
    const value = a.value ?? a.default ?? (a.isRequired ? (a.valueHint ?? 'idemscan-placeholder') : undefined);
    if (a.type === 'named' && a.name) {
      if (value === undefined) continue;
      out.push(a.name, value);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}
