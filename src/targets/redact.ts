/**
 * What a report may say about a target. Env and header values never appear (only their names);
 * secrets inside args and URLs are replaced. The same redactor cleans a server's stderr tail and
 * error messages, which often echo the token they were given.
 */
import type { TargetInfo } from '../report/schema.js';
import type { Target } from './types.js';

export const REDACTED = '[REDACTED]';

const SECRET_NAME = /(key|token|secret|pass|pwd|auth|credential|bearer|session|cookie|signature|private)/i;
const TOKEN_SHAPES = [
  /\b(sk|pk|rk)[-_](live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{8,}/g,
  /\b(ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abposr]|shpat|shpss|ntn|secret|lin_api|sntrys)_[A-Za-z0-9_-]{8,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/**
 * A value that reads like a credential: long, no spaces, several character classes, and not a
 * path, URL or media type. Ordinary values ("production", "/tmp/x", "application/json") are not
 * secrets, and blanking them would damage the report's descriptions.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || /^[./~]|:\/\/|^[a-z]+\/[a-z0-9.+-]+$/i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 3 || (classes === 2 && /\d/.test(value) && value.length >= 20);
}

/** Whether the value of an env variable, header or `${VAR}` named `name` is to be treated as a secret. */
export function isSecretValue(name: string, value: string): boolean {
  return (SECRET_NAME.test(name) && value.length >= 4) || looksRandom(value);
}

/** A header's secret parts: the whole value and the credential after "Bearer"/"Basic"/"Token". */
function headerSecrets(name: string, value: string): string[] {
  const credential = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
  return /^authorization$/i.test(name) || isSecretValue(name, credential) ? [value, credential] : [];
}

/** The Authorization value that stands for a URL's user info (fetch refuses credentials in URLs). */
export function basicAuthFromUrl(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const user = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  return `Basic ${Buffer.from(user).toString('base64')}`;
}

export class Redactor {
  private readonly secrets: string[];

  constructor(target: Pick<Target, 'env' | 'headers' | 'secrets' | 'url'>) {
    const values = [
      ...Object.entries(target.env ?? {}).flatMap(([name, v]) => (isSecretValue(name, v) ? [v] : [])),
      ...Object.entries(target.headers ?? {}).flatMap(([name, v]) => headerSecrets(name, v)),
      ...(target.secrets ?? []),
      ...urlSecrets(target.url),
    ];
    this.secrets = [...new Set(values.filter((v) => v.length >= 4))].sort((a, b) => b.length - a.length);
  }

  text(input: string): string {
    let out = input;
    for (const s of this.secrets) out = out.split(s).join(REDACTED);
    for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
    return out;
  }

  url(input: string): string {
    if (!URL.canParse(input)) return this.text(input);
    const url = new URL(input);
    // A user name in a URL is as often a token as a name.
    if (url.password) url.password = 'REDACTED';
    if (url.username) url.username = 'REDACTED';
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, REDACTED);
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
      const prev = args[i - 1];
      if (prev && /^--?[\w-]+$/.test(prev) && SECRET_NAME.test(prev)) return REDACTED;
      const eq = /^(--?[\w.-]+)=(.*)$/.exec(arg);
      if (eq && SECRET_NAME.test(eq[1]!)) return `${eq[1]}=${REDACTED}`;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return this.url(arg);
      return this.text(arg);
    });
  }
}

/** A server may echo its URL back in an error: its credentials and secret-looking query values too. */
function urlSecrets(input: string | undefined): string[] {
  if (!input || !URL.canParse(input)) return [];
  const url = new URL(input);
  const basic = basicAuthFromUrl(url);
  const query = [...url.searchParams.entries()].filter(([k, v]) => isSecretValue(k, v)).map(([, v]) => v);
  return [url.username, url.password, ...(basic ? [basic, basic.slice(6)] : []), ...query]
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

export function describeTarget(target: Target, resolved?: string): TargetInfo {
  const r = new Redactor(target);
  return {
    transport: target.transport,
    command: target.command && r.text(target.command),
    args: target.args && r.args(target.args),
    env: target.env && Object.keys(target.env),
    url: target.url && r.url(target.url),
    headers: target.headers && Object.keys(target.headers),
    npm: target.npm,
    resolved,
    fakeEnv: target.fakeEnv?.length ? target.fakeEnv : undefined,
    source: target.source,
  };
}
