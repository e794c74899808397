/** MCP registry `server.json` documents: pinned packages only, fake values for secrets, skips name the field. */
import { z } from 'zod';
import { httpUrlProblem, type LoadedTargets, type Target } from '../types.js';
import { envName, headerName, headerValue, launchText } from './fields.js';
import { describeZodError, type FormatContext, type TargetFormat } from './format.js';
import { PACKAGE_READERS } from './registry-packages.js';
import { args, fill, quote } from './registry-values.js';

// Only the fields idemscan uses are checked: they become argv, env and headers.
const Arg = z.object({
  type: z.string().optional(),
  name: launchText.optional(),
  value: launchText.optional(),
  default: launchText.optional(),
  isRequired: z.boolean().optional(),
});
const keyValue = (name: z.ZodType<string>, value: z.ZodType<string>) =>
  z.object({
    name: name.optional(),
    value: value.optional(),
    default: value.optional(),
    isRequired: z.boolean().optional(),
    isSecret: z.boolean().optional(),
  });
const EnvVar = keyValue(envName, launchText);
const Header = keyValue(headerName, headerValue);

const Pkg = z.object({
  registryType: z.string().optional(),
  registry_name: z.string().optional(),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().optional(),
  name: z.string().optional(),
  version: z.unknown().optional(),
  fileSha256: z.unknown().optional(),
  packageArguments: z.array(Arg).optional(),
  environmentVariables: z.array(EnvVar).optional(),
  transport: z.object({ type: z.string().optional() }).optional(),
});
const Remote = z.object({
  type: z.string().optional(),
  transport_type: z.string().optional(),
  url: z.string().optional(),
  headers: z.array(Header).optional(),
});
interface ServerJson {
  name: string;
  packages?: unknown[];
  remotes?: unknown[];
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
        out.skipped.push({
          name: `servers[${i}]`,
          source: ctx.file,
          reason: `servers[${i}].server: not a server.json`,
        });
        return;
      }
      readServer(server, ctx, out, isListResponse(doc) ? `servers[${i}].server.` : '');
    });
    return out;
  },
};

/** `at` prefixes the fields named in skip reasons: `servers[3].server.` in a list response. */
function readServer(server: ServerJson, ctx: FormatContext, out: LoadedTargets, at: string): void {
  const base = server.name;
  const skip = (name: string, reason: string): void => void out.skipped.push({ name, source: ctx.file, reason });
  const packages = Array.isArray(server.packages) ? server.packages : [];
  packages.forEach((raw, i) => {
    const field = `${at}packages[${i}]`;
    const given = isObj(raw) ? (raw.registryType ?? raw.registry_name) : undefined;
    const type = typeof given === 'string' ? given : undefined;
    const name = (packages.length > 1 ? `${base}#${type}` : base) + (i > 0 ? `-${i}` : '');
    const reader =
      type !== undefined && Object.hasOwn(PACKAGE_READERS, type)
        ? PACKAGE_READERS[type as keyof typeof PACKAGE_READERS]
        : undefined;
    if (!reader)
      return skip(
        name,
        `${field}: registry type ${quote(type)} is not launched by idemscan (${Object.keys(PACKAGE_READERS).join(', ')} only)`,
      );
    const parsed = Pkg.safeParse(raw);
    if (!parsed.success) return skip(name, describeZodError(field, parsed.error));
    const pkg = parsed.data;
    const got = reader(pkg, field);
    if ('skip' in got) return skip(name, got.skip);
    if (pkg.transport?.type && pkg.transport.type !== 'stdio') {
      return skip(name, `${field}.transport: "${pkg.transport.type}" packages need a URL; only stdio is launched`);
    }
    const { values: env, fake } = fill(pkg.environmentVariables ?? []);
    out.targets.push({
      name,
      source: `${ctx.file}#${base}.packages[${i}]`,
      kind: 'package',
      package: got,
      args: args(pkg.packageArguments ?? []),
      env,
      fakeEnv: fake,
    });
  });
  (Array.isArray(server.remotes) ? server.remotes : []).forEach((raw, i) => {
    const field = `${at}remotes[${i}]`;
    const name = `${base}#remote${i > 0 ? `-${i}` : ''}`;
    const parsed = Remote.safeParse(raw);
    if (!parsed.success) return skip(name, describeZodError(field, parsed.error));
    const remote = parsed.data;
    if (!remote.url || /[{}]/.test(remote.url) || !URL.canParse(remote.url)) {
      return skip(name, `${field}.url: missing, templated or not a URL`);
    }
    // file:, data:, javascript: and the like are not servers; naming the scheme is enough.
    const urlProblem = httpUrlProblem(remote.url);
    if (urlProblem) return skip(name, `${field}.url: ${urlProblem}`);
    const type = remote.type ?? remote.transport_type;
    const { values: headers, fake } = fill(remote.headers ?? []);
    out.targets.push({
      name,
      source: `${ctx.file}#${base}.remotes[${i}]`,
      kind: 'remote',
      transport: type === 'sse' ? 'sse' : 'http',
      url: remote.url,
      headers,
      fakeEnv: fake,
    } satisfies Target);
  });
}
