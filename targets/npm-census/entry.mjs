/** One candidate as a census entry, or the reason it is left out (build.mjs). */
import { fakeValue } from './readme-env.mjs';

const NO_BIN = 'no bin, so npx cannot start it: a library, SDK, framework or plugin, not a server one launches';

/**
 * The bin npx would run (named like the package: none needs naming), else the one that names MCP
 * or a server. npm links a bin key "@scope/name" as `name`; a target's bin is a key without a slash.
 */
function chooseBin(name, keys) {
  const unscoped = name.split('/').pop();
  if (keys.length <= 1 || keys.some((k) => k.split('/').pop() === unscoped)) return undefined;
  const plain = keys.filter((k) => !k.includes('/'));
  return plain.find((b) => /mcp/i.test(b)) ?? plain.find((b) => /server/i.test(b)) ?? plain[0];
}

/** Fake values for the env names the README's config blocks give. */
function fakeEnv(names) {
  return names.length ? Object.fromEntries(names.map((n) => [n, fakeValue(n)])) : undefined;
}

/** Drops undefined fields, so that the file has no `"x": null`. */
const defined = (entry) => Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));

/**
 * `decision` (decisions.json) wins over what the registry suggests; an `old` entry (popular-npm.json)
 * is kept as it was scanned. `nameFor` gives a short unique name to a new one.
 */
export function entryFor(candidate, doc, decision = {}, old, nameFor) {
  if (decision.exclude) return { reason: decision.exclude };
  if (old) return { entry: defined({ ...old, downloads: candidate.downloads, ...decision.entry }) };
  if (!doc || doc.error) return { reason: `not on the registry: ${doc?.error ?? 'no document'}` };
  if (!doc.bins.length && !decision.entry?.bin) return { reason: NO_BIN };
  const own = decision.entry ?? {};
  const deprecated = doc.deprecated ? `Deprecated on npm: ${doc.deprecated}` : undefined;
  return {
    entry: defined({
      name: own.name ?? nameFor(candidate.name),
      npm: `${candidate.name}@${own.version ?? doc.version}`,
      bin: own.bin ?? chooseBin(candidate.name, doc.bins),
      args: own.args,
      env: own.env === undefined ? fakeEnv(doc.envNames) : Object.keys(own.env).length ? own.env : undefined,
      timeout: own.timeout,
      installScripts: own.installScripts,
      downloads: candidate.downloads,
      skip: own.skip,
      comment: [own.comment, deprecated].filter(Boolean).join(' ') || undefined,
    }),
  };
}

const AFFIXES = [/^mcp-server-/, /-mcp-server$/, /^server-/, /-server$/, /^mcp-/, /-mcp$/];

/** A short name for `pkg` not yet in `taken`: the unscoped name without MCP affixes, then with its scope. */
export function shortName(pkg, taken) {
  const [scope, bare] = pkg.startsWith('@') ? pkg.slice(1).split('/') : [undefined, pkg];
  let name = bare.toLowerCase();
  for (const affix of AFFIXES) {
    const cut = name.replace(affix, '');
    if (cut.length >= 2) name = cut;
  }
  const choices = [name, scope ? `${name}-${scope}` : undefined, pkg.replace(/[@/]/g, '-').replace(/^-/, '')];
  for (const choice of choices.filter(Boolean)) {
    if (!taken.has(choice)) {
      taken.add(choice);
      return choice;
    }
  }
  for (let n = 2; ; n++) {
    if (!taken.has(`${name}-${n}`)) {
      taken.add(`${name}-${n}`);
      return `${name}-${n}`;
    }
  }
}
