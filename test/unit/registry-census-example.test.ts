/** docs/examples/registry-census.yml: valid YAML whose jobs pull, scan remotes and package shards, merge and publish with options that exist. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPORTERS } from '../../src/render/index.js';

const file = new URL('../../docs/examples/registry-census.yml', import.meta.url);
const text = readFileSync(file, 'utf8');
const doc = parse(text) as {
  env: Record<string, string | number>;
  jobs: Record<
    string,
    {
      strategy?: { matrix: { shard: number[] } };
      needs?: string | string[];
      permissions?: Record<string, string>;
      steps: { run?: string; uses?: string; with?: Record<string, unknown> }[];
    }
  >;
};
const runs = (job: string) => doc.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');
const help = (words: string[]) => {
  // The options the workflow passes exist: declared in main.ts and flags.ts, the --help text's source.
  const main = ['cli/main.ts', 'cli/flags.ts', 'census/cli/register.ts', 'census/cli/flags.ts', 'shell/options.ts']
    .map((f) => readFileSync(new URL(`../../src/${f}`, import.meta.url), 'utf8'))
    .join('\n');
  return words.filter((w) => !main.includes(`'${w} `) && !main.includes(`'${w}'`) && !main.includes(`, ${w}'`));
};

describe('docs/examples/registry-census.yml', () => {
  it('pulls the registry incrementally, from the cached pull of the last run, and splits remotes from packages', () => {
    const pull = runs('pull');
    expect(pull).toContain('registry pull --out registry-servers.json');
    const cache = doc.jobs.pull!.steps.find((s) => s.uses?.startsWith('actions/cache'))!;
    expect(cache.with!.path).toBe('registry-servers.json');
    expect(cache.with!['restore-keys']).toBe('registry-pull-');
    expect(pull).toContain('> remotes.json');
    expect(pull).toContain('> packages.json');
  });

  it('scans every remote in one job with its own HTTP pool, without signing in', () => {
    expect(doc.jobs.remotes!.needs).toBe('pull');
    expect(doc.jobs.remotes!.strategy).toBeUndefined();
    const scan = runs('remotes');
    expect(scan).toContain('scan remotes.json --http-concurrency 64');
    expect(scan).toContain('--stored-auth-only');
    expect(scan).not.toContain('--oauth ');
  });

  it('scans the packages in a matrix of shards under --sandbox, each with its own cache', () => {
    expect(doc.jobs.packages!.strategy!.matrix.shard).toEqual(
      Array.from({ length: Number(doc.env.SHARDS) }, (_, i) => i + 1),
    );
    const scan = runs('packages');
    expect(scan).toContain('scan packages.json --shard ${{ matrix.shard }}/$SHARDS');
    expect(scan).toContain('--sandbox');
    expect(scan).toContain('--cache-dir .idemscan-cache/shard-${{ matrix.shard }}');
    expect(scan).toContain('--out output/shard-${{ matrix.shard }}');
    expect(
      doc.jobs.packages!.steps.some(
        (s) => s.uses?.startsWith('actions/cache') && s.with!.path === '.idemscan-cache/shard-${{ matrix.shard }}',
      ),
    ).toBe(true);
  });

  it('merges the remotes and every shard into every format with --index and --compare latest, counts needs-auth apart, and publishes', () => {
    expect(doc.jobs.merge!.needs).toEqual(['remotes', 'packages']);
    const merge = runs('merge');
    expect(merge).toMatch(/merge reports\/\*\.json --out "\$out" --index "\$INDEX" --compare latest/);
    const formats = /--format ([a-z,]+)/.exec(merge)![1]!.split(',');
    expect(formats).toEqual(expect.arrayContaining(['json', 'html', 'md', 'csv', 'ndjson']));
    for (const f of formats) expect(REPORTERS[f]?.fileName, f).toBeDefined();
    expect(merge).toContain('select(.auth.required)');
    expect(merge).toMatch(/git add "\$OUT" "\$INDEX\/index\.json" "\$INDEX\/index\.html"/);
    expect(merge).toContain('git push');
    expect(doc.jobs.merge!.permissions?.contents).toBe('write');
  });

  it('passes only options idemscan declares, and installs idemscan from its repository', () => {
    const flags = [...new Set(text.match(/--[a-z][a-z-]+/g) ?? [])].filter((f) => !['--yes', '--global'].includes(f));
    expect(flags).toContain('--http-concurrency');
    expect(help(flags)).toEqual([]);
    // Pinned by a commit, with the command that gets one; no owner or tag that does not exist.
    expect(text).toContain('npm install -g git+https://github.com/<owner>/idemscan#<sha>');
    expect(text).toContain('git ls-remote\n# https://github.com/<owner>/idemscan HEAD');
    expect(text).not.toMatch(/OWNER|@v1\b|v1\.0\.0/);
  });
});
