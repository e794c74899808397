/**
 * `idemscan targets refresh FILE` against a local npm registry (test/helpers/npm-registry.ts) and the
 * fixture MCP Registry (test/fixtures/registry-server.mjs), both on 127.0.0.1: every pin moves to
 * the latest version, old -> new is printed, the rest of the file is kept as it was.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTargetFile } from '../../src/targets/published.js';
import { idemscan } from '../helpers/cli.js';
import { startFixtureRegistry, type FixtureRegistry } from '../helpers/fixture-registry.js';
import { startRegistry, type LocalRegistry } from '../helpers/npm-registry.js';

const PACKAGE = fileURLToPath(new URL('../fixtures/packages/npx-server', import.meta.url));
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
let npm: LocalRegistry;
const started: FixtureRegistry[] = [];
beforeAll(async () => {
  npm = await startRegistry([{ dir: PACKAGE, versions: ['1.0.0', '1.1.0', '2.0.0-beta.1'], latest: '1.1.0' }]);
}, 120_000);
afterAll(async () => {
  await npm?.close();
  await Promise.all(started.map((r) => r.close()));
});
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-refresh-'));
/** `targets refresh FILE` against the local npm registry, with a cache of its own under `dir`. */
const refreshNpm = (file: string, dir: string) =>
  idemscan(['targets', 'refresh', file, '--cache-dir', path.join(dir, 'cache')], { env: npm.env() });
const entry = (name: string, version: string, extra: { status?: string; isLatest?: boolean } = {}) => ({
  server: {
    name,
    version,
    remotes: [{ type: 'streamable-http', url: `https://${name.replace('/', '-')}.example.com/mcp/${version}` }],
  },
  _meta: { [OFFICIAL]: { status: extra.status ?? 'active', isLatest: extra.isLatest ?? true } },
});

describe('targets refresh', () => {
  it(
    're-pins npm entries to the latest version npm view reports, keeping the rest of the file',
    { timeout: 60_000 },
    async () => {
      const dir = tmp();
      const file = path.join(dir, 'targets.json');
      const before = `{
  // a list by hand
  "servers": [
    {"name":"probe","npm":"idemscan-npx-probe@1.0.0","args":["/tmp"],"comment":"kept as written"},
    {"name":"missing","npm":"idemscan-no-such-package@1.0.0"},
    {"name":"local","command":"node","args":["server.mjs"]}
  ]
}
`;
      writeFileSync(file, before);
      const run = await refreshNpm(file, dir);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toBe('probe: 1.0.0 -> 1.1.0');
      expect(run.stderr).toContain('missing: not refreshed: npm view failed');
      expect(readFileSync(file, 'utf8')).toBe(before.replace('idemscan-npx-probe@1.0.0', 'idemscan-npx-probe@1.1.0'));
      expect(npm.requests).toContain('/idemscan-npx-probe');
    },
  );

  it('leaves a held pin where it is, reports the latest version and the reason', { timeout: 60_000 }, async () => {
    const dir = tmp();
    const file = path.join(dir, 'targets.json');
    const before = JSON.stringify({
      servers: [
        { name: 'held', npm: 'idemscan-npx-probe@1.0.0', hold: '1.1.0 exits at start on Node 20' },
        { name: 'moved', npm: 'idemscan-npx-probe@1.0.0' },
      ],
    });
    writeFileSync(file, before);
    const run = await refreshNpm(file, dir);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe('moved: 1.0.0 -> 1.1.0');
    expect(run.stderr).toContain('held: held at 1.0.0 (latest 1.1.0): 1.1.0 exits at start on Node 20');
    expect(run.stderr).toContain('0 already latest, 1 held, 0 not refreshed');
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.servers.map((e: { npm: string }) => e.npm)).toEqual([
      'idemscan-npx-probe@1.0.0',
      'idemscan-npx-probe@1.1.0',
    ]);
    // A scan reads the field (and skips an entry whose hold gives no reason, naming the field).
    expect((await loadTargetFile(file)).targets.map((t) => t.name)).toEqual(['held', 'moved']);
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'x', npm: 'idemscan-npx-probe@1.0.0', hold: '' }] }));
    const bad = await loadTargetFile(file);
    expect(bad.targets).toEqual([]);
    expect(bad.skipped[0]!.reason).toMatch(/hold: give the reason the pin is held/);
  });

  it('re-pins MCP Registry entries to version latest of --base-url, as JSON; --dry-run writes nothing', async () => {
    const dir = tmp();
    const doc = path.join(dir, 'entries.json');
    writeFileSync(
      doc,
      JSON.stringify([
        entry('a/moved', '1.0.0', { isLatest: false }),
        entry('a/moved', '2.0.0'),
        entry('b/deleted', '1.0.0', { status: 'deleted' }),
        entry('c/same', '1.0.0'),
      ]),
    );
    const r = await startFixtureRegistry({ DOC: doc });
    started.push(r);
    const file = path.join(dir, 'registry.json');
    const list = {
      description: 'pulled',
      servers: [
        entry('a/moved', '1.0.0'),
        entry('b/deleted', '1.0.0'),
        entry('c/same', '1.0.0'),
        entry('d/unknown', '1.0.0'),
      ],
    };
    writeFileSync(file, JSON.stringify(list, null, 1));
    const dry = await idemscan(['targets', 'refresh', file, '--base-url', r.url, '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      written: false,
      changes: [{ name: 'a/moved', registry: 'mcp-registry', from: '1.0.0', to: '2.0.0' }],
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(list);

    const run = await idemscan(['targets', 'refresh', file, '--base-url', r.url, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as {
      written: boolean;
      unchanged: string[];
      failed: { name: string; error: string }[];
    };
    expect(out.written).toBe(true);
    expect(out.unchanged).toEqual(['c/same']);
    expect(out.failed.map((f) => f.name)).toEqual(['b/deleted', 'd/unknown']);
    expect(out.failed[0]!.error).toContain('deleted');
    expect(out.failed[1]!.error).toContain('HTTP 404');
    expect(r.hits()).toContain('/v0.1/servers/a%2Fmoved/versions/latest');
    const loaded = await loadTargetFile(file);
    expect(loaded.targets.find((t) => t.name === 'a/moved#remote')?.url).toBe('https://a-moved.example.com/mcp/2.0.0');
    expect(loaded.targets).toHaveLength(4);
  });

  it('a latest version nested too deep is that pin not refreshed, with its reason; the others move', async () => {
    const dir = tmp();
    const doc = path.join(dir, 'entries.json');
    // As JSON text, sent as it is: 200,000 levels (400 KB) is under every size bound.
    const deep = JSON.stringify(entry('b/deep', '2.0.0')).replace(
      '"server":{',
      `"server":{"nested":${'['.repeat(200_000)}${']'.repeat(200_000)},`,
    );
    writeFileSync(doc, JSON.stringify([entry('a/moved', '2.0.0'), deep]));
    const r = await startFixtureRegistry({ DOC: doc });
    started.push(r);
    const file = path.join(dir, 'registry.json');
    writeFileSync(file, JSON.stringify({ servers: [entry('a/moved', '1.0.0'), entry('b/deep', '1.0.0')] }, null, 1));
    const run = await idemscan(['targets', 'refresh', file, '--base-url', r.url, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      written: true,
      changes: [{ name: 'a/moved', from: '1.0.0', to: '2.0.0' }],
      failed: [{ name: 'b/deep', error: 'page 1 servers[0]: nested deeper than 62 levels' }],
    });
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { servers: { server: { version: string } }[] };
    expect(kept.servers.map((e) => e.server.version)).toEqual(['2.0.0', '1.0.0']);
  });

  it('a target file nested too deep is a usage error naming it, not a stack overflow', async () => {
    const file = path.join(tmp(), 'deep.json');
    writeFileSync(file, `{"servers":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const run = await idemscan(['targets', 'refresh', file, '--base-url', 'http://127.0.0.1:9']);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${file}: nested deeper than 64 levels`);
  });
});
