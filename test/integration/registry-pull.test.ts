/**
 * `idemscan registry pull` against a fixture MCP Registry on 127.0.0.1 (test/fixtures/registry-server.mjs):
 * paging with URL-encoded cursors, the latest active version of each server, hostile pages (a cursor
 * loop, HTML, a 500, a 9 MB page, a redirect) that end the pull naming the page and keep what was
 * read, bad entries skipped with the entry and field (one nested 200,000 deep among them), an
 * incremental update, and the file scan reads.
 */
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTargetFile } from '../../src/targets/published.js';
import { idemscan } from '../helpers/cli.js';
import { startFixtureRegistry, type FixtureRegistry } from '../helpers/fixture-registry.js';

const started: FixtureRegistry[] = [];
afterAll(async () => {
  await Promise.all(started.map((r) => r.close()));
});
async function registry(env: Record<string, string>): Promise<FixtureRegistry> {
  const r = await startFixtureRegistry(env);
  started.push(r);
  return r;
}
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'idemscan-pull-'));
const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const entry = (
  name: string,
  version: string | undefined,
  part: Record<string, unknown>,
  extra: { status?: string; isLatest?: boolean; updatedAt?: string } = {},
) => ({
  server: { name, ...(version !== undefined ? { version } : {}), ...part },
  _meta: {
    [OFFICIAL]: {
      status: extra.status ?? 'active',
      isLatest: extra.isLatest ?? true,
      updatedAt: extra.updatedAt ?? '2026-11-01T00:00:00Z',
    },
  },
});
const remote = (url: string, type = 'streamable-http') => ({ remotes: [{ type, url }] });
const npm = (id: string) => ({
  packages: [{ registryType: 'npm', identifier: id, version: '1.0.0', transport: { type: 'stdio' } }],
});

interface Pulled {
  counts: Record<string, number>;
  incomplete?: string;
  pulledAt: string;
  servers: { server: { name: string; version: string; remotes?: unknown[] } }[];
  skipped?: { name: string; reason: string }[];
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Pulled;

describe('registry pull', () => {
  it('pages with URL-encoded cursors and keeps the latest active version of each server, in a file scan reads', async () => {
    const r = await registry({ SERVERS: '250', PAGE_SIZE: '50' });
    const out = path.join(tmp(), 'registry.json');
    const run = await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    // 500 entries (an older and a latest version each) in 10 pages; the cursor `c/2&x=1 y` encoded.
    expect(r.hits()).toHaveLength(10);
    expect(r.hits()[1]).toContain('cursor=c%2F2%26x%3D1+y');
    expect(run.stderr).toContain('registry page 10:');
    const file = read(out);
    expect(file.counts).toEqual({ servers: 240, deleted: 5, deprecated: 5, older: 250, skipped: 0 });
    expect(new Set(file.servers.map((s) => s.server.version))).toEqual(new Set(['1.0.1']));
    expect(file.servers.map((s) => s.server.name)).not.toContain('io.example/server-7'); // deleted
    const loaded = await loadTargetFile(out);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.targets).toHaveLength(240);
    expect(loaded.targets.filter((t) => t.transport === 'http')).toHaveLength(81); // 84 remotes, 3 of them deleted or deprecated
    expect(loaded.targets.find((t) => t.name === 'io.example/server-1')).toMatchObject({
      transport: 'stdio',
      npm: '@fixture/pkg-1@1.0.1',
    });
  });

  it.each([
    ['loop', 2, 'cursor "c/2&x=1 y" seen twice'],
    ['notjson', 2, 'page 3: http://127.0.0.1'],
    ['status500', 2, 'HTTP 500'],
    ['huge', 2, 'above the page bound'],
    ['redirect', 1, 'HTTP 302 (a redirect: not followed)'],
    ['badcursor', 2, 'metadata.nextCursor is not a cursor'],
  ])(
    'a hostile page (%s) ends the pull with an error naming the page and keeps the %i pages read',
    async (mode, pages, words) => {
      const r = await registry({ SERVERS: '100', PAGE_SIZE: '40', MODE: mode });
      const out = path.join(tmp(), 'registry.json');
      const run = await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out, '-q']);
      expect(run.exitCode).toBe(3);
      expect(run.stderr).toContain('registry pull stopped: page');
      expect(run.stderr).toContain(words);
      const file = read(out);
      expect(file.incomplete).toContain(words);
      // 40 entries a page, half of them latest versions; server 7 and 8 of each 50 are left out.
      expect(file.servers.length).toBeGreaterThanOrEqual(pages * 20 - 2);
      expect(file.servers.length).toBeLessThanOrEqual(pages * 20);
      // Nothing went where the redirect pointed: only this registry's pages were asked for.
      expect(r.hits().every((h) => h.startsWith('/v0.1/servers?'))).toBe(true);
      // The next pull asks for everything again (an incomplete pull keeps no pulledAt of its own).
      expect(file.pulledAt).toBe(new Date(0).toISOString());
    },
  );

  it('skips bad entries with a reason naming the entry and the field, and keeps the rest', async () => {
    const dir = tmp();
    const doc = path.join(dir, 'entries.json');
    writeFileSync(
      doc,
      JSON.stringify([
        entry('ok/remote', '1.0.0', remote('https://mcp.example.com/mcp')),
        entry('bad/templated', '1.0.0', remote('https://{tenant}.example.com/mcp')),
        entry('bad/websocket', '1.0.0', remote('wss://ws.example.com/mcp', 'websocket')),
        entry('half/templated', '1.0.0', {
          remotes: [
            { type: 'sse', url: 'https://{region}.example.com/sse' },
            { type: 'sse', url: 'https://eu.example.com/sse' },
          ],
        }),
        entry('bad/no-version', undefined, npm('@x/no-version')),
        entry('dup/name', '1.0.0', npm('@x/dup')),
        entry('dup/name', '2.0.0', npm('@x/dup')),
        entry('bad/huge', '1.0.0', { ...npm('@x/huge'), description: 'x'.repeat(300_000) }),
        entry('bad/http-package', '1.0.0', {
          packages: [
            {
              registryType: 'npm',
              identifier: '@x/h',
              version: '1.0.0',
              transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' },
            },
          ],
        }),
        { server: { name: 'bad/no-meta', version: '1.0.0', ...npm('@x/m') } },
        entry('other/pypi', '1.0.0', {
          packages: [{ registryType: 'pypi', identifier: 'mcp-thing', version: '1.0.0' }],
        }),
      ]),
    );
    const r = await registry({ DOC: doc });
    const out = path.join(dir, 'registry.json');
    const run = await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const file = read(out);
    expect(file.servers.map((s) => s.server.name)).toEqual(['ok/remote', 'half/templated', 'dup/name', 'other/pypi']);
    expect(file.servers.find((s) => s.server.name === 'half/templated')!.server.remotes).toEqual([
      { type: 'sse', url: 'https://eu.example.com/sse' },
    ]);
    const reasons = Object.fromEntries((file.skipped ?? []).map((s) => [s.name, s.reason]));
    expect(reasons['bad/templated']).toContain('page 1 servers[1].server.remotes[0].url: templated');
    expect(reasons['bad/websocket']).toContain('servers[2].server.remotes[0].type: "websocket" is not a transport');
    expect(reasons['half/templated']).toContain('servers[3].server.remotes[0].url: templated');
    expect(reasons['bad/no-version']).toContain('servers[4].server.version: missing');
    expect(reasons['dup/name']).toContain('servers[6].server.name: duplicate');
    expect(reasons['bad/huge']).toMatch(/servers\[7\]: 300\d{3} bytes, above the bound/);
    expect(reasons['bad/http-package']).toContain('servers[8].server.packages[0].transport.type: "streamable-http"');
    expect(reasons['bad/no-meta']).toContain(`servers[9]._meta["${OFFICIAL}"]: missing`);
    for (const name of Object.keys(reasons)) expect(run.stderr).toContain(`skipped ${name}:`);
    expect(file.counts.skipped).toBe(file.skipped!.length);
  });

  it('skips an entry nested too deep with its reason, and keeps the others on its page and after', async () => {
    const dir = tmp();
    const doc = path.join(dir, 'entries.json');
    // Entries as JSON text (the fixture sends them as they are): 200,000 levels is 400 KB, under
    // every size bound, and too deep for JSON.stringify. An entry of 62 levels (MAX_ENTRY_DEPTH)
    // is kept and makes a file of 64, as deep as a target file may be; one of 63 is a skip.
    const nested = (name: string, depth: number) =>
      JSON.stringify(entry(name, '1.0.0', npm('@x/deep'))).replace(
        '"server":{',
        `"server":{"nested":${'['.repeat(depth)}${']'.repeat(depth)},`,
      );
    const withTransport = (name: string, depth: number) =>
      JSON.stringify(entry(name, '1.0.0', npm(`@x/${name.split('/')[1]}`))).replace(
        '"transport":{',
        `"transport":{"nested":${'['.repeat(depth)}${']'.repeat(depth)},`,
      );
    writeFileSync(
      doc,
      JSON.stringify([
        entry('ok/first', '1.0.0', npm('@x/first')),
        nested('deep/nested', 200_000),
        withTransport('edge/at-bound', 57),
        withTransport('edge/past-bound', 58),
        entry('ok/last', '1.0.0', remote('https://last.example.com/mcp')),
      ]),
    );
    const r = await registry({ DOC: doc, PAGE_SIZE: '2' });
    const out = path.join(dir, 'registry.json');
    const run = await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('RangeError');
    const file = read(out);
    expect(file.servers.map((s) => s.server.name)).toEqual(['ok/first', 'edge/at-bound', 'ok/last']);
    expect(file.skipped).toEqual([
      { name: 'deep/nested', reason: 'page 1 servers[1]: nested deeper than 62 levels' },
      { name: 'edge/past-bound', reason: 'page 2 servers[1]: nested deeper than 62 levels' },
    ]);
    expect(run.stderr).toContain('skipped deep/nested: page 1 servers[1]: nested deeper than 62 levels');
    const loaded = await loadTargetFile(out);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.targets.map((t) => t.name)).toContain('edge/at-bound');
  });

  it('updates an existing --out file with what changed since its pulledAt', async () => {
    const dir = tmp();
    const doc = path.join(dir, 'entries.json');
    const early = { updatedAt: '2026-11-01T00:00:00Z' };
    writeFileSync(
      doc,
      JSON.stringify([
        entry('a/changes', '1.0.0', npm('@x/a'), early),
        entry('b/deleted', '1.0.0', npm('@x/b'), early),
        entry('d/same', '1.0.0', npm('@x/d'), early),
      ]),
    );
    const r = await registry({ DOC: doc });
    const out = path.join(dir, 'registry.json');
    expect((await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out, '-q'])).exitCode).toBe(0);
    const first = read(out);
    const later = { updatedAt: '2099-01-01T00:00:00Z' };
    writeFileSync(
      doc,
      JSON.stringify([
        entry('a/changes', '1.0.0', npm('@x/a'), { ...later, isLatest: false }),
        entry('a/changes', '1.1.0', npm('@x/a'), later),
        entry('b/deleted', '1.0.0', npm('@x/b'), { ...later, status: 'deleted' }),
        entry('c/new', '0.1.0', remote('https://c.example.com/mcp'), later),
        entry('d/same', '1.0.0', npm('@x/d'), early),
      ]),
    );
    const run = await idemscan(['registry', 'pull', '--base-url', r.url, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('only what changed since');
    expect(r.hits().at(-1)).toContain(`updated_since=${encodeURIComponent(first.pulledAt)}`);
    const file = read(out);
    expect(Object.fromEntries(file.servers.map((s) => [s.server.name, s.server.version]))).toEqual({
      'a/changes': '1.1.0',
      'd/same': '1.0.0',
      'c/new': '0.1.0',
    });
    expect(file.counts.deleted).toBe(1);
  });

  it('refuses a bad --updated-since, a base URL that is not http(s), and an --out file of another registry', async () => {
    const dir = tmp();
    expect(
      (
        await idemscan([
          'registry',
          'pull',
          '--base-url',
          'http://127.0.0.1:9',
          '--updated-since',
          'yesterday',
          '--out',
          `${dir}/x.json`,
        ])
      ).stderr,
    ).toContain('--updated-since yesterday: not a time');
    const ftp = await idemscan(['registry', 'pull', '--base-url', 'ftp://127.0.0.1/', '--out', `${dir}/x.json`]);
    expect(ftp.exitCode).toBe(2);
    writeFileSync(
      `${dir}/other.json`,
      JSON.stringify({ baseUrl: 'http://127.0.0.1:1/', pulledAt: '2026-11-01T00:00:00Z', servers: [] }),
    );
    const other = await idemscan([
      'registry',
      'pull',
      '--base-url',
      'http://127.0.0.1:9',
      '--out',
      `${dir}/other.json`,
    ]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('was pulled from http://127.0.0.1:1/');
    // An --out file too large to be a pull is not read whole (a sparse 17 MB file: nothing to update).
    writeFileSync(`${dir}/big.json`, '');
    truncateSync(`${dir}/big.json`, 17 * 1024 * 1024);
    const big = await idemscan(['registry', 'pull', '--base-url', 'http://127.0.0.1:9', '--out', `${dir}/big.json`]);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toContain('larger than 16 MB');
  });
});
