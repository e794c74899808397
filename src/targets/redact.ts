/**
 * What a report may say about a target. Env and header values never appear (only their names);
 * secrets inside args and URLs are replaced. The same redactor cleans a server's stderr tail and
 * error messages, which often echo the token they were given.
 */
import type { TargetInfo } from '../report/schema.js';
import type { Target } from './types.js';

export const REDACTED = '[REDACTED]';

const SECRET_NAME = /(key|token|secret|passw(or)?d|pwd|auth|credential|bearer|session|cookie|signature|private)/i;
const TOKEN_SHAPES = [
  /\b(sk|pk|rk)[-_](live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{8,}/g,
  /\b(ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abposr]|shpat|shpss|ntn|secret|lin_api|sntrys)_[A-Za-z0-9_-]{8,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

export class Redactor {
  private readonly secrets: string[];

  constructor(target: Pick<Target, 'env' | 'headers' | 'secrets' | 'url'>) {
    const values = [
      ...Object.values(target.env ?? {}),
      ...Object.values(target.headers ?? {}),
      ...(target.secrets ?? []),
      ...urlSecrets(target.url),
    ];
    // Also catch the token part of "Bearer abc"; short values would redact ordinary words.
    const parts = values.flatMap((v) => [v, ...v.split(/\s+/)]);
    this.secrets = [...new Set(parts.filter((v) => v.length >= 6))].sort((a, b) => b.length - a.length);
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

/** A server may echo its URL back in an error: its credentials and query values are secrets too. */
function urlSecrets(input: string | undefined): string[] {
  if (!input || !URL.canParse(input)) return [];
  const url = new URL(input);
  const raw = [url.username, url.password, ...url.searchParams.values()];
  return raw.flatMap((v) => {
    try {
      return [v, decodeURIComponent(v)];
    } catch {
      return [v];
    }
  }).filter(Boolean);
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
