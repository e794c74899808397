/**
 * OAuth against real servers on 127.0.0.1 (oauth-servers.mjs: the SDK's authorization server
 * helpers and a protected MCP server): sign-in with dynamic registration and with a pre-registered
 * client, refresh after expiry, --stored-auth-only in CI, client credentials, logout, and what a
 * scan without tokens reports. The consent is a real HTML form posted over HTTP here; the Chromium
 * test (test/browser/oauth-consent.test.ts) clicks it.
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { CLI, idemscan } from '../helpers/cli.js';
import { login, startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oauth-'));
const fixtures: OAuthFixture[] = [];
afterAll(async () => Promise.all(fixtures.map((f) => f.close())));

async function start(env: Record<string, string> = {}): Promise<OAuthFixture> {
  const f = await startOAuthFixture(env);
  fixtures.push(f);
  return f;
}

let caches = 0;
const freshCache = () => path.join(dir, `cache-${++caches}`);
const fast = ['--probe-timeout', '500', '--timeout', '20000'];
/** Sign-ins start three processes one after another; a loaded 2-core machine needs the margin. */
const SLOW = 180_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a token file read back as written
type Stored = Record<string, any>;

function tokenFiles(cache: string): { file: string; record: Stored }[] {
  const oauth = path.join(cache, 'oauth');
  return readdirSync(oauth).map((name) => ({
    file: path.join(oauth, name),
    record: JSON.parse(readFileSync(path.join(oauth, name), 'utf8')),
  }));
}

/** `idemscan audit URL --stored-auth-only` with the cache's tokens, the JSON report to `json`. */
function auditStored(url: string, cache: string, json: string, extra: string[] = fast) {
  return idemscan(['audit', url, '--stored-auth-only', '--cache-dir', cache, '--json', json, ...extra]);
}

/** A loopback port nothing listens on (fetch refuses low "bad ports" such as 1 before connecting). */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function reportOf(file: string): Report {
  return Report.parse(JSON.parse(readFileSync(file, 'utf8')));
}

describe('OAuth sign-in', () => {
  it('names a server it cannot reach, as a scan does', async () => {
    const port = await closedPort();
    const r = await execa(
      process.execPath,
      [CLI, 'login', `http://127.0.0.1:${port}/mcp`, '--cache-dir', freshCache(), '--oauth-timeout', '10000'],
      { reject: false, timeout: 30_000 },
    );
    expect(r.stderr).toContain(
      `idemscan: login failed: ECONNREFUSED 127.0.0.1:${port}: cannot reach the server (connection refused)`,
    );
    expect(r.exitCode).toBe(3);
  });

  it(
    'signs in with dynamic client registration, stores tokens 0600 in a 0700 directory, and CI scans with them',
    async () => {
      const f = await start({ MODE: 'dcr' });
      const cache = freshCache();
      const res = await login(f.url, cache);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).toContain(`Signed in to ${f.url}`);
      const [stored] = tokenFiles(cache);
      expect(stored!.record).toMatchObject({ version: 1, serverUrl: f.url, issuer: f.issuer, registration: 'dcr' });
      expect(stored!.record.tokens.access_token).toMatch(/^at-/);
      expect(stored!.record.client.client_id).toBeTruthy();
      expect(statSync(stored!.file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(stored!.file)).mode & 0o777).toBe(0o700);

      const json = path.join(dir, 'dcr.json');
      const scan = await auditStored(f.url, cache, json);
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
      const server = reportOf(json).servers[0]!;
      expect(server.status).toBe('ok');
      expect(server.tools.map((t) => t.name)).toContain('create_payment');
      // The token was sent from the start: the server never refused, so there is no `auth` to report.
      expect(server.auth).toBeUndefined();

      const out = await idemscan(['logout', f.url, '--cache-dir', cache]);
      expect(out.stdout).toContain('Removed 1 token file(s)');
      expect(readdirSync(path.join(cache, 'oauth'))).toEqual([]);
    },
    SLOW,
  );

  it(
    'signs in with a pre-registered client (--client-id) where the server offers no registration',
    async () => {
      const f = await start({ MODE: 'preregistered', PRE_CLIENT_ID: 'idemscan-preregistered' });
      const cache = freshCache();
      const res = await login(f.url, cache, ['--client-id', 'idemscan-preregistered']);
      expect(res.exitCode, res.stderr).toBe(0);
      const [stored] = tokenFiles(cache);
      expect(stored!.record.registration).toBe('preregistered');
      expect(stored!.record.client).toBeUndefined(); // a given client id is given again each time, not stored

      const json = path.join(dir, 'pre.json');
      const scan = await auditStored(f.url, cache, json, ['--client-id', 'idemscan-preregistered', ...fast]);
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
    },
    SLOW,
  );

  it(
    'signs in with a Client ID Metadata Document where the server accepts one (CIMD)',
    async () => {
      const f = await start({ MODE: 'cimd' });
      const cache = freshCache();
      const res = await login(f.url, cache, ['--client-metadata-url', f.cimd!]);
      expect(res.exitCode, res.stderr).toBe(0);
      const [stored] = tokenFiles(cache);
      expect(stored!.record.registration).toBe('cimd');
      expect(stored!.record.client.client_id).toBe(f.cimd);
      const json = path.join(dir, 'cimd.json');
      const scan = await auditStored(f.url, cache, json);
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
    },
    SLOW,
  );

  it(
    'refreshes an expired access token with the stored refresh token',
    async () => {
      const f = await start({ MODE: 'dcr', TOKEN_TTL: '2' });
      const cache = freshCache();
      expect((await login(f.url, cache)).exitCode).toBe(0);
      const before = tokenFiles(cache)[0]!.record.tokens;
      await new Promise((r) => setTimeout(r, 2_500)); // the 2 s token has expired
      const json = path.join(dir, 'refresh.json');
      const scan = await auditStored(f.url, cache, json);
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
      expect(f.stderr()).toContain('refreshed');
      const after = tokenFiles(cache)[0]!.record.tokens;
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).not.toBe(before.refresh_token);
      // It refused the expired token first: the report says what it published.
      expect(reportOf(json).servers[0]!.auth).toMatchObject({ status: 401, signedIn: true, registration: 'dcr' });
    },
    SLOW,
  );

  it(
    '--stored-auth-only without tokens fails fast with kind auth, exit 3 and the login command',
    async () => {
      const f = await start({ MODE: 'dcr' });
      const cache = freshCache();
      const json = path.join(dir, 'ci.json');
      const started = Date.now();
      const scan = await auditStored(f.url, cache, json, ['--probe-timeout', '500', '--timeout', '120000']);
      expect(scan.exitCode).toBe(3);
      expect(scan.stdout).toContain(`idemscan login ${f.url}`);
      const server = reportOf(json).servers[0]!;
      expect(server.failure).toMatchObject({ kind: 'auth' });
      expect(server.failure!.message).toContain(`\`idemscan login ${f.url}\``);
      // Never waited for a browser or for the server's 120 s --timeout (it would have failed with kind timeout).
      expect(Date.now() - started).toBeLessThan(100_000);
      // Nothing was registered or stored on the way.
      expect(() => readdirSync(path.join(cache, 'oauth'))).toThrow();
    },
    SLOW,
  );

  it(
    'client credentials: a machine client with its secret from an environment variable',
    async () => {
      const secret = 'MachineSecret7Qw2Er9Ty';
      const f = await start({ MODE: 'dcr', MACHINE_ID: 'ci-machine', MACHINE_SECRET: secret });
      const cache = freshCache();
      const json = path.join(dir, 'cc.json');
      const scan = await idemscan(
        [
          'audit',
          f.url,
          '--oauth',
          '--client-id',
          'ci-machine',
          '--client-secret-env',
          'CI_SECRET',
          '--cache-dir',
          cache,
          '--json',
          json,
          ...fast,
        ],
        {
          env: { CI_SECRET: secret },
        },
      );
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
      expect(reportOf(json).servers[0]!.status).toBe('ok');
      const [stored] = tokenFiles(cache);
      expect(stored!.record.registration).toBe('client-credentials');
      // The secret stays in the environment: never in the token file, the report or the terminal.
      for (const text of [readFileSync(stored!.file, 'utf8'), readFileSync(json, 'utf8'), scan.stdout, scan.stderr])
        expect(text).not.toContain(secret);

      const unset = await idemscan([
        'audit',
        f.url,
        '--oauth',
        '--client-id',
        'ci-machine',
        '--client-secret-env',
        'NOT_SET_ANYWHERE',
        '--cache-dir',
        cache,
      ]);
      expect(unset.exitCode).toBe(2);
      expect(unset.stderr).toContain('NOT_SET_ANYWHERE');
    },
    SLOW,
  );
});

describe('what an OAuth server publishes, without signing in', () => {
  it(
    'an ecosystem-style scan reports each refusing server with its auth fields',
    async () => {
      const dcr = await start({ MODE: 'dcr' });
      const pre = await start({ MODE: 'preregistered' });
      const cimd = await start({ MODE: 'cimd' });
      const list = path.join(dir, 'eco.json');
      writeFileSync(
        list,
        JSON.stringify({
          servers: [
            { name: 'oauth-dcr', url: dcr.url },
            { name: 'oauth-preregistered', url: pre.url },
            { name: 'oauth-cimd', url: cimd.url },
          ],
        }),
      );
      const json = path.join(dir, 'eco-report.json');
      const scan = await idemscan(['scan', list, '--cache-dir', freshCache(), '--json', json, ...fast]);
      expect(scan.exitCode).toBe(3);
      const servers = Object.fromEntries(reportOf(json).servers.map((s) => [s.name, s]));
      for (const [name, f, registration] of [
        ['oauth-dcr', dcr, 'dcr'],
        ['oauth-preregistered', pre, 'preregistered'],
        ['oauth-cimd', cimd, 'cimd'],
      ] as const) {
        const s = servers[name]!;
        expect(s.failure?.kind).toBe('auth');
        expect(s.failure?.message).toContain(`idemscan login ${f.url}`);
        expect(s.auth).toEqual({
          required: true,
          status: 401,
          scheme: 'bearer',
          error: 'invalid_token',
          resourceMetadata: f.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'),
          resource: f.url,
          authorizationServers: [f.issuer],
          scopesSupported: ['mcp:tools'],
          registration,
        });
      }
      writeFileSync(
        path.join(dir, 'eco-auth.json'),
        JSON.stringify(
          Object.values(servers).map((s) => ({ name: s.name, auth: s.auth })),
          null,
          2,
        ),
      );
    },
    SLOW,
  );

  it(
    'refuses metadata that points at another origin over plain http, in a report and in a sign-in',
    async () => {
      const f = await start({ MODE: 'foreign-metadata' });
      const json = path.join(dir, 'foreign.json');
      await idemscan(['audit', f.url, '--cache-dir', freshCache(), '--json', json, ...fast]);
      const auth = reportOf(json).servers[0]!.auth!;
      expect(auth.problems?.join('\n')).toContain(
        'refused resource_metadata on another origin (http://metadata.example.test)',
      );
      expect(auth.resourceMetadata).toBeUndefined();

      const g = await start({ MODE: 'foreign-as' });
      const json2 = path.join(dir, 'foreign-as.json');
      const scan = await idemscan(
        ['audit', g.url, '--oauth', '--oauth-timeout', '20000', '--cache-dir', freshCache(), '--json', json2, ...fast],
        { env: { IDEMSCAN_NO_BROWSER: '1' } },
      );
      expect(scan.exitCode).toBe(3);
      const server = reportOf(json2).servers[0]!;
      expect(server.auth?.authorizationServers).toEqual(['http://auth.example.test/']);
      expect(server.auth?.problems?.join('\n')).toContain('refused http://auth.example.test');
      expect(server.failure?.kind).toBe('auth');
      expect(server.failure?.message).toContain('refused http://auth.example.test');
      expect(scan.stderr).not.toContain('/authorize?'); // no sign-in was offered
    },
    SLOW,
  );
});
