/** docs/examples/ecosystem-scan.yml: valid YAML whose commands use shards, formats and options that exist. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPORTERS } from '../../src/render/index.js';

const file = new URL('../../docs/examples/ecosystem-scan.yml', import.meta.url);
const doc = parse(readFileSync(file, 'utf8')) as {
  env: Record<string, string | number>;
  jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; needs?: string; steps: { run?: string }[] }>;
};
const runs = (job: string) => doc.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');

describe('docs/examples/ecosystem-scan.yml', () => {
  it('installs the census list once into one cache, then scans every shard under --sandbox from it', () => {
    expect(runs('install')).toContain('install "$TARGETS" --cache-dir .idemscan-cache');
    expect(doc.jobs.scan!.needs).toBe('install');
    expect(doc.env.TARGETS).toBe('targets/npm-census.json');
    expect(doc.jobs.scan!.strategy!.matrix.shard).toEqual(
      Array.from({ length: Number(doc.env.SHARDS) }, (_, i) => i + 1),
    );
    const scan = runs('scan');
    expect(scan).toContain('--shard ${{ matrix.shard }}/$SHARDS');
    expect(scan).toContain('--sandbox');
    expect(scan).toContain('--cache-dir .idemscan-cache ');
    // Its own --out too: shards side by side on one machine would race on one report.json.
    expect(scan).toContain('--out output/shard-${{ matrix.shard }}');
  });

  it('merges into every format, the dataset included, with --compare', () => {
    expect(doc.jobs.merge!.needs).toBe('scan');
    const merge = runs('merge');
    const formats = /--format ([a-z,]+)/.exec(merge)![1]!.split(',');
    expect(formats).toEqual(expect.arrayContaining(['json', 'html', 'md', 'csv', 'ndjson']));
    for (const f of formats) expect(REPORTERS[f]?.fileName, f).toBeDefined();
    expect(merge).toContain('--compare latest');
  });

  it('names no earlier report by a path: --compare latest reads the index that merge --index updates', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/output\/ecosystem\/\d{4}-\d{2}-\d{2}/);
    expect(doc.env.PREVIOUS).toBeUndefined();
    expect(runs('merge')).toMatch(/merge shards\/shard-\*\.json --out "\$out" --index "\$INDEX" --compare latest/);
  });

  it('writes the census statistics into the run directory it publishes', () => {
    const merge = runs('merge');
    expect(merge).toContain('stats "$OUT/report.json" --top 125');
    expect(merge.indexOf('stats "$OUT')).toBeLessThan(merge.indexOf('git add "$OUT"'));
  });

  it('publishes: regenerates the README census block and commits the run, the index and the README', () => {
    const merge = runs('merge');
    expect(merge).toContain('index "$INDEX" --readme README.md');
    expect(merge).toMatch(/git add "\$OUT" "\$INDEX\/index\.json" "\$INDEX\/index\.html" README\.md/);
    expect(merge).toContain('git push');
    expect((doc.jobs.merge as { permissions?: Record<string, string> }).permissions?.contents).toBe('write');
  });

  it('publishes the behaviour table of the plan library where the index page reads it', () => {
    const merge = runs('merge');
    expect(merge).toContain('probe-census probes --out "$INDEX/behaviour"');
    // Before the index is written, so its page shows the new table.
    expect(merge.indexOf('probe-census')).toBeLessThan(merge.indexOf('index "$INDEX" --readme'));
    expect(merge).toMatch(/git add .*"\$INDEX\/behaviour"/);
  });

  it('tells how to install idemscan from its repository, not from the npm registry it is not on', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('npx --yes idemscan@');
    // Pinned by a commit, with the command that gets one; no owner or tag that does not exist.
    expect(text).toContain('npm install -g git+https://github.com/<owner>/idemscan#<sha>');
    expect(text).toContain('git ls-remote\n# https://github.com/<owner>/idemscan HEAD');
    expect(text).not.toMatch(/OWNER|@v1\b|v1\.0\.0/);
  });
});

describe("the README's census loop", () => {
  const lines = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').split('\n');

  it('gives each shard of the parallel loop its own --out, and merges the reports written there', () => {
    const loop = lines.find((l) => l.startsWith('for i in') && l.includes('--shard $i/'));
    expect(loop).toBeDefined();
    const out = /--out (\S*\$i\S*)/.exec(loop!)?.[1];
    expect(out, "the loop's --out names the shard").toBeDefined();
    expect(loop).not.toMatch(/--json \S+/); // one report per shard, in its own folder
    const merge = lines.find((l) => l.startsWith('npx idemscan merge'));
    expect(merge).toContain(`merge ${out!.replace('$i', '*')}/report.json --out output/ecosystem/`);
  });
});
