#!/usr/bin/env node
/* global process */
/**
 * Makes targets/npm-census.json, the wide npm census, and targets/npm-census/excluded.tsv, what was
 * left out and why. Anyone can rerun it:
 *
 *   node targets/npm-census/build.mjs                 # from the cached registry documents
 *   node targets/npm-census/build.mjs --refresh       # asks the registry again (one document per candidate)
 *   node targets/npm-census/build.mjs --snapshot F    # new candidates from a download snapshot (TSV)
 *
 * 1. Candidates (candidates.tsv): every package of the npm download snapshot whose name or summary
 *    names MCP, with at least MIN_DOWNLOADS a month. No crawl of the registry: the snapshot is the list.
 * 2. The registry document of each candidate (registry.json caches what is used of it): its latest
 *    version, bin, deprecation, engines and the env names its README's config blocks give.
 * 3. decisions.json, read by hand: a package left out with its reason, or what its entry needs
 *    (args, env, bin, skip with the reason it cannot start here). Entries of popular-npm.json keep
 *    their name, pin, args and env, so that the trend matches them across runs.
 * 4. Every other candidate with a bin is an entry; one without is left out (npx cannot start it).
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchDocuments } from './registry.mjs';
import { entryFor, shortName } from './entry.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TARGETS = path.dirname(HERE);
const MIN_DOWNLOADS = 300;
const MCP = /(?:^|[^a-z])mcp(?:[^a-z]|$)|model context protocol/;

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);

const readJson = (file, fallback) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fallback);
const writeJson = (file, data) => writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);

/** Candidates from a snapshot TSV (name, version, downloads_a_month, summary), most downloaded first. */
function candidatesFrom(snapshot) {
  const rows = readFileSync(snapshot, 'utf8').split('\n').slice(1);
  return rows
    .map((line) => line.split('\t'))
    .filter(([name, , downloads, summary = '']) => {
      if (!name || Number(downloads) < MIN_DOWNLOADS) return false;
      return name.toLowerCase().includes('mcp') || MCP.test(summary.toLowerCase());
    })
    .map(([name, , downloads, summary = '']) => ({ name, downloads: Number(downloads), summary }))
    .sort((a, b) => b.downloads - a.downloads || byCodePoint(a.name, b.name));
}

function writeCandidates(file, candidates) {
  const lines = candidates.map((c) => [c.name, c.downloads, c.summary.replace(/[\t\n]/g, ' ')].join('\t'));
  writeFileSync(file, `name\tdownloads_a_month\tsummary\n${lines.join('\n')}\n`);
}

function readCandidates(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [name, downloads, summary] = line.split('\t');
      return { name, downloads: Number(downloads), summary };
    });
}

const packageOf = (e) => e.npm.slice(0, e.npm.lastIndexOf('@'));
const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const listed = (file) => readJson(path.join(TARGETS, file), { servers: [] }).servers.filter((e) => e.npm);

/** The popular-npm.json entries by package name: they keep what they were scanned with. */
function carriedOver() {
  return new Map(listed('popular-npm.json').map((e) => [packageOf(e), e]));
}

/**
 * Names that published runs gave to packages (the reference servers, the 2026-11-29 list): a package
 * keeps its name, and no other package gets it, so that the trend and the server pages never join two.
 */
function reservedNames() {
  return new Map(['reference.json', 'previous-npm.json'].flatMap(listed).map((e) => [packageOf(e), e.name]));
}

/** Stops the build on a registry document it could not get: a package must not leave the census quietly. */
function checkDocuments(documents, names) {
  const failed = names.filter((n) => documents[n]?.error && !documents[n].error.includes('404'));
  if (!failed.length) return;
  for (const n of failed) process.stderr.write(`${n}: ${documents[n].error}\n`);
  process.stderr.write(`${failed.length} registry documents could not be read: run the build again\n`);
  process.exit(1);
}

async function main() {
  const candidatesFile = path.join(HERE, 'candidates.tsv');
  if (value('--snapshot')) writeCandidates(candidatesFile, candidatesFrom(value('--snapshot')));
  const candidates = readCandidates(candidatesFile);
  const registryFile = path.join(HERE, 'registry.json');
  const cached = flag('--refresh') ? {} : readJson(registryFile, {});
  const documents = await fetchDocuments(
    candidates.map((c) => c.name),
    cached,
  );
  writeJson(registryFile, Object.fromEntries(Object.entries(documents).sort(([a], [b]) => byCodePoint(a, b))));
  checkDocuments(
    documents,
    candidates.map((c) => c.name),
  );
  const decisions = readJson(path.join(HERE, 'decisions.json'), {});
  const old = carriedOver();
  const servers = [];
  const excluded = [];
  const reserved = reservedNames();
  const own = Object.values(decisions).flatMap((d) => (d.entry?.name ? [d.entry.name] : []));
  const taken = new Set([...[...old.values()].map((e) => e.name), ...reserved.values(), ...own]);
  const nameFor = (pkg) => reserved.get(pkg) ?? shortName(pkg, taken);
  candidates.forEach((c, index) => {
    const made = entryFor({ ...c, rank: index + 1 }, documents[c.name], decisions[c.name], old.get(c.name), nameFor);
    if (made.entry) servers.push(made.entry);
    else excluded.push({ rank: index + 1, ...c, version: documents[c.name]?.version ?? '', reason: made.reason });
  });
  const names = servers.map((e) => e.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`names given twice: ${twice.join(', ')}`);
  writeJson(path.join(TARGETS, 'npm-census.json'), {
    description:
      `The wide npm census: every npm package naming MCP with at least ${MIN_DOWNLOADS} downloads a month (by npm's download snapshot of candidates.tsv) ` +
      'that is an MCP server one can launch, pinned. Made by targets/npm-census/build.mjs; what it left out, and why, is targets/npm-census/excluded.tsv.',
    servers,
  });
  const rows = excluded.map((e) => [e.rank, e.name, e.version, e.downloads, e.reason].join('\t'));
  writeFileSync(path.join(HERE, 'excluded.tsv'), `rank\tpackage\tversion\tdownloads\treason\n${rows.join('\n')}\n`);
  const skipped = servers.filter((s) => s.skip).length;
  process.stdout.write(
    `${candidates.length} candidates: ${servers.length} entries (${skipped} with a skip), ${excluded.length} left out\n`,
  );
}

await main();
