/** An unset variable without a default fails its entry: an empty token would report a misleading failure. */
import os from 'node:os';

/** An environment variable's name, as `${VAR}`, `--allow-env` and the configs that name one by name give it. */
export const ENV_NAME = /^[A-Z_]\w*$/i;

export interface ExpandContext {
  env: NodeJS.ProcessEnv;
  workspaceFolder?: string;
  /** Names an untrusted list; its `env` then holds only `--allow-env` variables, so it cannot pick a secret. */
  untrusted?: string;
}

/** The variables of `env` that `allowed` names: all an untrusted list may read. */
export function allowedEnv(env: NodeJS.ProcessEnv, allowed: readonly string[]): NodeJS.ProcessEnv {
  const out = Object.create(null) as NodeJS.ProcessEnv;
  // An allowed name stays a key when unset, so its error says "not set" rather than "not allowed".
  for (const name of allowed) out[name] = env[name];
  return out;
}

/** Why `name` has no value for `ctx`: unset, or (in an untrusted list) not allowed. */
export function unsetWords(ref: string, name: string, ctx: ExpandContext): string {
  if (ctx.untrusted === undefined || name in ctx.env) return `${ref} is not set in the environment`;
  return `${ref} is not expanded: idemscan reads into ${ctx.untrusted} only the environment variables --allow-env names (--allow-env ${name}, when you trust it with that value)`;
}

export class ExpandError extends Error {
  /** `variable`: the `${VAR}` left unexpanded, when that is why (`SkippedTarget.unexpanded`). */
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
  }
}

/** A skipped entry's `unexpanded` field, from the error that skipped it. */
export const unexpanded = (err: ExpandError): { unexpanded?: string } =>
  err.variable === undefined ? {} : { unexpanded: err.variable };

const PATTERN = /\$\{([^}]+)\}/g;

/** Every value from the environment is a secret for the report: configs use `${VAR}` to keep values out. */
function expandString(value: string, ctx: ExpandContext, fromEnv: string[] = []): string {
  return value.replace(PATTERN, (whole, body: string) => {
    if (body === 'workspaceFolder' && ctx.workspaceFolder) return ctx.workspaceFolder;
    if (body === 'userHome') return os.homedir();
    const envRef = body.startsWith('env:') ? body.slice(4) : body;
    const [name, fallback] = splitDefault(envRef);
    if (!ENV_NAME.test(name)) {
      if (body.startsWith('input:')) throw new ExpandError(`${whole} needs an interactive VS Code input`);
      return whole;
    }
    const found = ctx.env[name];
    if (found !== undefined && found !== '') {
      fromEnv.push(found);
      return found;
    }
    // In an untrusted list a variable that is not allowed reads as unset: its default applies.
    if (fallback !== undefined) return fallback;
    throw new ExpandError(unsetWords(whole, name, ctx), name);
  });
}

function splitDefault(body: string): [string, string | undefined] {
  const at = body.indexOf(':-');
  return at < 0 ? [body, undefined] : [body.slice(0, at), body.slice(at + 2)];
}

/** Also returns the values taken from the environment, so the report redacts them wherever they end up. */
export function expandFields<T extends Record<string, unknown>>(
  entry: T,
  ctx: ExpandContext,
  path: string,
): { entry: T; fromEnv: string[] } {
  const fromEnv: string[] = [];
  const walk = (value: unknown, at: string): unknown => {
    if (typeof value === 'string') {
      try {
        return expandString(value, ctx, fromEnv);
      } catch (err) {
        throw new ExpandError(
          `${at}: ${(err as Error).message}`,
          err instanceof ExpandError ? err.variable : undefined,
        );
      }
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${at}[${i}]`));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, `${at}.${k}`)]));
    }
    return value;
  };
  const out: Record<string, unknown> = { ...entry };
  for (const field of ['command', 'args', 'env', 'url', 'serverUrl', 'headers', 'cwd']) {
    if (field in out) out[field] = walk(out[field], `${path}.${field}`);
  }
  return { entry: out as T, fromEnv };
}
