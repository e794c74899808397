/**
 * What a package's README says its server needs to start: the environment variable names of its
 * `"env": { ... }` config blocks (the mcpServers snippets READMEs give), each with an obvious fake
 * value. Only names that look like a credential, an account or a service address are taken: a
 * README's `"READ_ONLY": "true"` or `"LOG_LEVEL": "debug"` is a choice, not a need.
 *
 * A README is untrusted text of any size: one linear pass, no backtracking patterns, a bound.
 */

const MAX_README = 512 * 1024;
const MAX_NAMES = 12;
/** An env block is a few lines: its closing brace is looked for this far at most. */
const MAX_BLOCK = 4096;
/** `"env"` blocks read at most: a README of nothing else costs MAX_BLOCKS * MAX_BLOCK at most. */
const MAX_BLOCKS = 200;
const NAME = /^[A-Z][A-Z0-9_]{2,63}$/;
/** Whole `_`-separated words, so that SECURITY is no URI and SUPABASE no BASE. */
const NEEDED = new Set(
  'KEY APIKEY TOKEN SECRET PASSWORD PASSWD PASS AUTH CREDENTIAL CREDENTIALS URL URI HOST HOSTNAME ENDPOINT DOMAIN ID USER USERNAME EMAIL ACCOUNT PROJECT WORKSPACE ORG ORGANIZATION TENANT REGION INSTANCE SITE DSN'.split(' '),
);
const NOT_NEEDED = new Set(['PATH', 'HOME', 'NODE_ENV', 'DEBUG', 'LOG_LEVEL', 'PORT']);
const words = (name) => name.split('_');

/** The env names of every `"env": {...}` object in `readme`, in the order met. */
export function readmeEnvNames(readme) {
  const text = typeof readme === 'string' ? readme.slice(0, MAX_README) : '';
  const names = [];
  let blocks = 0;
  for (let at = text.indexOf('"env"'); at !== -1 && names.length < MAX_NAMES; at = text.indexOf('"env"', at + 5)) {
    if (++blocks > MAX_BLOCKS) break;
    // `"env": {` with blanks around the colon: only the few characters after the name are read.
    const after = text.slice(at + 5, at + 21);
    const colon = after.indexOf(':');
    const brace = after.indexOf('{');
    if (colon === -1 || brace < colon || after.slice(0, colon).trim() || after.slice(colon + 1, brace).trim()) continue;
    const open = at + 5 + brace;
    const close = text.slice(open, open + MAX_BLOCK).indexOf('}');
    if (close === -1) continue;
    for (const key of keysOf(text.slice(open + 1, open + close))) {
      if (!NAME.test(key) || NOT_NEEDED.has(key) || names.includes(key)) continue;
      if (words(key).some((w) => NEEDED.has(w))) names.push(key);
    }
  }
  return names.slice(0, MAX_NAMES);
}

/** The quoted keys (`"NAME":`) of an object body, without a regex over the whole text. */
function keysOf(body) {
  const keys = [];
  let at = 0;
  for (;;) {
    const start = body.indexOf('"', at);
    if (start === -1) return keys;
    const end = body.indexOf('"', start + 1);
    if (end === -1) return keys;
    const rest = body.slice(end + 1, end + 8).trimStart();
    if (rest.startsWith(':')) keys.push(body.slice(start + 1, end));
    at = end + 1;
  }
}

/** Connection strings by the service a name's words give, each at a closed loopback port. */
const SCHEMES = [
  [['MONGO', 'MONGODB'], 'mongodb://127.0.0.1:2/idemscan'],
  [['REDIS'], 'redis://127.0.0.1:2'],
  [['MYSQL', 'MARIADB'], 'mysql://idemscan:fake@127.0.0.1:2/idemscan'],
  [['SENTRY'], 'http://idemscan@127.0.0.1:2/1'],
  [['DATABASE', 'DB', 'POSTGRES', 'POSTGRESQL', 'PG', 'SUPABASE', 'NEON'], 'postgres://idemscan:fake@127.0.0.1:2/idemscan'],
];

/** An obvious fake for `name`: a closed loopback port for addresses, a marked string otherwise. */
export function fakeValue(name) {
  const w = words(name);
  const has = (...list) => list.some((x) => w.includes(x));
  // A password or key is a string whatever it is for (MCP_EMAIL_PASSWORD, SMTP_HOST_KEY).
  if (has('KEY', 'APIKEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'PASS')) return fake(name);
  if (has('URL', 'URI', 'DSN', 'CONNECTION')) {
    const scheme = SCHEMES.find(([services]) => has(...services));
    if (scheme) return scheme[1];
    return has('DSN', 'CONNECTION') ? SCHEMES.at(-1)[1] : 'http://127.0.0.1:2';
  }
  if (has('ENDPOINT', 'BASE')) return 'http://127.0.0.1:2';
  if (has('HOST', 'HOSTNAME', 'DOMAIN', 'SITE', 'SERVER')) return '127.0.0.1';
  if (has('EMAIL')) return 'idemscan@example.invalid';
  return fake(name);
}

const fake = (name) => `idemscan-fake-${name.toLowerCase().replace(/_/g, '-')}`;
