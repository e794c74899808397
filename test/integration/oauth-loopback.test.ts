/**
 * Local OAuth development: an MCP server on http://127.0.0.1:PORT1 beside a local identity provider
 * on http://127.0.0.1:PORT2 (oauth-servers.mjs with SPLIT=1, two origins over plain http). Both are
 * loopback, so `login` signs in and a `--stored-auth-only` scan refreshes the token at the other
 * origin. The refusals that stay (a remote MCP server, an authorization server that is not loopback)
 * are in test/unit/oauth-origins.test.ts and oauth.test.ts ("refuses metadata that points at another origin").
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { login, startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oauth-loopback-'));
let fixture: OAuthFixture | undefined;
afterAll(async () => fixture?.close());

it('signs in and scans with stored tokens when the authorization server is another loopback origin', async () => {
  fixture = await startOAuthFixture({ MODE: 'dcr', SPLIT: '1', TOKEN_TTL: '2' });
  const { url, issuer } = fixture;
  expect(new URL(issuer).hostname).toBe('127.0.0.1');
  expect(new URL(issuer).origin).not.toBe(new URL(url).origin);

  const cache = path.join(dir, 'cache');
  const res = await login(url, cache);
  expect(res.exitCode, res.stderr).toBe(0);
  expect(res.stdout).toContain(`Signed in to ${url}`);
  const [name] = readdirSync(path.join(cache, 'oauth'));
  const record = JSON.parse(readFileSync(path.join(cache, 'oauth', name!), 'utf8'));
  expect(record).toMatchObject({ serverUrl: url, issuer, registration: 'dcr' });

  // The 2 s token has expired: the scan refreshes it at the authorization server's own origin.
  await new Promise((r) => setTimeout(r, 2_500));
  const json = path.join(dir, 'stored.json');
  const scan = await idemscan([
    'audit',
    url,
    '--stored-auth-only',
    '--cache-dir',
    cache,
    '--json',
    json,
    '--probe-timeout',
    '500',
    '--timeout',
    '20000',
  ]);
  expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
  expect(fixture.stderr()).toContain('refreshed');
  const server = Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers[0]!;
  expect(server.status).toBe('ok');
  expect(server.tools.map((t) => t.name)).toContain('create_payment');
  expect(server.auth).toMatchObject({ status: 401, signedIn: true, authorizationServers: [issuer] });
  expect(server.auth?.problems).toBeUndefined();
}, 180_000);
