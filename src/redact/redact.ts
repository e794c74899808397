// Servers echo the tokens they were given in stderr and errors. Redaction: docs/INTERNALS.md.
import type { TargetInfo } from '../model/schema.js';
import { REDACTED } from './token-shapes.js';
import { SecretText } from './secret-text.js';
import type { TargetInput } from '../targets/types.js';

const SECRET_NAME = /key|token|secret|pass|pwd|auth|credential|bearer|session|cookie|signature|private/i;
/** A flag whose value is a header (`mcp-remote --header "Authorization: Bearer ..."`, `curl -H`). */
const HEADER_FLAG = /^(?:--header|-H)$/;

/** Paths, URLs and media types are not secrets: blanking them would damage the report's descriptions. */
function looksRandom(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || /^[./~]|:\/\/|^[a-z]+\/[a-z0-9.+-]+$/i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Z0-9]/i].filter((re) => re.test(value)).length;
  return classes >= 3 || (classes === 2 && /\d/.test(value) && value.length >= 20);
}

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

function isSecretValue(name: string, value: string): boolean {
  return (SECRET_NAME.test(name) && value.length >= 4) || looksRandom(value);
}

/** Any header value, its credential, and a Basic credential decoded (a server may print user and password). */
function headerSecrets(value: string): string[] {
  const credential = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
  if (!/^Basic\s/i.test(value)) return [value, credential];
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return [value, credential, decoded, ...(colon >= 0 ? [decoded.slice(0, colon), decoded.slice(colon + 1)] : [])];
}

/** Fetch refuses credentials in URLs. */
export function basicAuthFromUrl(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const user = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return `Basic ${Buffer.from(user).toString('base64')}`;
}

function launchSecrets(target: Pick<TargetInput, 'env' | 'headers' | 'secrets' | 'url' | 'args'>): string[] {
  const values = [
    ...Object.entries(target.env ?? {}).flatMap(([name, v]) => (isSecretValue(name, v) ? [v] : [])),
    ...Object.values(target.headers ?? {}).flatMap(headerSecrets),
    ...(target.secrets ?? []),
    ...urlSecrets(target.url),
    ...(target.args ?? []).flatMap((arg, i, args) => argSecrets(arg, args[i - 1])),
  ];
  // A URL percent-encodes them; a key argument's path JSON-escapes odd property names.
  return values.flatMap((v) => [v, safeDecode(v), encodeURIComponent(v), JSON.stringify(v).slice(1, -1)]);
}

/** Also an assignment to a secret name (`-e DB_PASSWORD=x` of docker, `API_KEY=x` after `env`). */
function flagValue(
  arg: string,
  prev: string | undefined,
): { flag: string; value: string; header: boolean; joined: boolean } | undefined {
  const secretFlag = (flag: string) => SECRET_NAME.test(flag) || HEADER_FLAG.test(flag);
  // `--no-auth --port 8080`: a flag after a flag is not its value.
  if (prev !== undefined && /^-[\w-]+$/.test(prev) && secretFlag(prev) && !/^--?[A-Z][\w-]*(?:=|$)/i.test(arg)) {
    return { flag: prev, value: arg, header: HEADER_FLAG.test(prev), joined: false };
  }
  const eq = arg.indexOf('=');
  const flag = arg.slice(0, eq);
  if (eq > 0 && /^(?:-[\w.-]+|[A-Z_][\w.]*)$/i.test(flag) && secretFlag(flag)) {
    return { flag, value: arg.slice(eq + 1), header: HEADER_FLAG.test(flag), joined: true };
  }
  return undefined;
}

function argSecrets(arg: string, prev: string | undefined): string[] {
  const given = flagValue(arg, prev);
  if (given?.header) {
    const colon = given.value.indexOf(':');
    return [given.value, ...(colon > 0 ? headerSecrets(given.value.slice(colon + 1).trim()) : [])];
  }
  if (given) return [given.value];
  return URL_ARG.test(arg) ? urlSecrets(arg) : [];
}

const URL_ARG = /^[a-z][a-z0-9+.-]*:\/\//i;

export class Redactor {
  private values: string[];
  private secrets: SecretText;

  constructor(target: Pick<TargetInput, 'env' | 'headers' | 'secrets' | 'url' | 'args'>) {
    this.values = launchSecrets(target);
    this.secrets = new SecretText(this.values);
  }

  /** Remakes the matcher: once per server at most, after connecting. */
  add(more: readonly string[]): void {
    if (more.length === 0) return;
    this.values = [...this.values, ...more];
    this.secrets = new SecretText(this.values);
  }

  /** Linear in the text's length. */
  text(input: string): string {
    return this.secrets.redact(input);
  }

  url(input: string): string {
    if (!URL.canParse(input)) return this.text(input);
    const url = new URL(input);
    // A user name in a URL is as often a token as a name.
    if (url.password) url.password = 'REDACTED';
    if (url.username) url.username = 'REDACTED';
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, REDACTED);
    // A fragment is never sent, but it is where OAuth's implicit flow puts `#access_token=`.
    if (url.hash) url.hash = REDACTED;
    let shown = url.toString();
    try {
      shown = decodeURI(shown); // so "[REDACTED]" reads as such; a stray % keeps the encoded form
    } catch {
      // keep the encoded form
    }
    return this.text(shown);
  }

  args(args: string[]): string[] {
    return args.map((arg, i) => {
      const given = flagValue(arg, args[i - 1]);
      if (given) return given.joined ? `${given.flag}=${REDACTED}` : REDACTED;
      if (URL_ARG.test(arg)) return this.url(arg);
      return this.text(arg);
    });
  }
}

/** A server may echo its URL back in an error. */
function urlSecrets(input: string | undefined): string[] {
  if (!input || !URL.canParse(input)) return [];
  const url = new URL(input);
  const basic = basicAuthFromUrl(url);
  // Decoded by URLSearchParams ("+" is a space), and as written.
  const query = [
    ...url.searchParams.values(),
    ...url.search
      .slice(1)
      .split('&')
      .flatMap((p) => (p.includes('=') ? [p.slice(p.indexOf('=') + 1)] : [])),
  ];
  const path = url.pathname.split('/').filter((part) => looksRandom(safeDecode(part)));
  const fragment = url.hash
    .slice(1)
    .split('&')
    .flatMap((p) => (p.includes('=') ? [p.slice(p.indexOf('=') + 1)] : []));
  return [url.username, url.password, ...(basic ? [basic, basic.slice(6)] : []), ...query, ...path, ...fragment]
    .filter(Boolean)
    .flatMap((v) => [v, safeDecode(v)]);
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

export function describeTarget(target: TargetInput, resolved?: string, r: Redactor = new Redactor(target)): TargetInfo {
  return {
    transport: target.transport,
    command: target.command && r.text(target.command),
    args: target.args && r.args(target.args),
    env: target.env && Object.keys(target.env),
    url: target.url && r.url(target.url),
    headers: target.headers && Object.keys(target.headers),
    npm: target.npm,
    pypi: target.pypi,
    index: target.index && r.url(target.index),
    mcpb: target.mcpb && { url: r.url(target.mcpb.url), sha256: target.mcpb.sha256 },
    oci: target.oci,
    launcher: target.launcher && { ...target.launcher, spec: r.text(target.launcher.spec) },
    resolved,
    fakeEnv: target.fakeEnv?.length ? target.fakeEnv : undefined,
    source: target.source,
    downloads: target.downloads,
    listedBy: target.listedBy?.map((l) => ({ ...l })),
  };
}
