/**
 * OAuth against lists someone else wrote (issue 16): a list's server that answers 401 names its own
 * authorization server (the oauth fixture, one origin on 127.0.0.1, logging every token request),
 * and must never receive a client secret or a token request unless the user named it for one; a
 * 401 must not point idemscan at another origin (an "internal service"), in any spelling of
 * 127.0.0.1; an internal service's error text never reaches the report; a stored token of one
 * server is blanked in another's report.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { startHostileHttp, type RunningServer } from '../helpers/hostile-http.js';
import { startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oauth-hostile-'));
const running: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(running.map((r) => r.close())));

const SECRET = 'HostSecret9Zx8Cv7Bn';
const fast = ['--probe-timeout', '500', '--timeout', '20000', '-q'];
let n = 0;
const fresh = (name: string) => path.join(dir, `${name}-${++n}`);

async function machineFixture(): Promise<OAuthFixture> {
  // The grant would succeed: the fixture knows this client and secret, so only idemscan's rules stop it.
  const f = await startOAuthFixture({ MODE: 'dcr', MACHINE_ID: 'ci-machine', MACHINE_SECRET: SECRET });
  running.push(f);
  return f;
}

async function hostileHttp(env: Record<string, string>): Promise<RunningServer> {
  const s = await startHostileHttp(env);
  running.push(s);
  return s;
}

function list(name: string, servers: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

const tokenRequests = (f: OAuthFixture) =>
  f
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('oauth-servers: token'));

describe('client secrets', () => {
  it('a target file that names a secret variable is refused, naming the file and field, with and without --stored-auth-only', async () => {
    const f = await machineFixture();
    const file = list('secret-env.json', [
      { name: 'grabby', url: f.url, oauth: { clientId: 'ci-machine', clientSecretEnv: 'AWS_SECRET_ACCESS_KEY' } },
    ]);
    for (const extra of [[], ['--stored-auth-only']]) {
      const r = await idemscan(['scan', file, '--cache-dir', fresh('cache'), '--json', '-', ...extra, ...fast], {
        env: { AWS_SECRET_ACCESS_KEY: SECRET },
      });
      expect(r.stderr).toContain(
        `skipped grabby (${file}): servers[0].oauth.clientSecretEnv: a target file may not name a client secret`,
      );
      expect(r.stdout).not.toContain(SECRET);
    }
    expect(tokenRequests(f)).toEqual([]);
  });

  it('command-line client credentials go only to the origins named for them, and the grant runs only with --oauth', async () => {
    const f = await machineFixture();
    const file = list('cli-secret.json', [{ name: 'listed', url: f.url }]);
    const creds = ['--client-id', 'ci-machine', '--client-secret-env', 'CI_SECRET'];
    const env = { env: { CI_SECRET: SECRET } };
    // A list's servers are not named: a client id needs --client-origin, a secret needs --oauth.
    const noOrigin = await idemscan(['scan', file, '--oauth', ...creds, '--cache-dir', fresh('cache'), ...fast], env);
    expect(noOrigin.exitCode).toBe(2);
    expect(noOrigin.stderr).toContain('--client-id: name the servers it is for with --client-origin');
    const noOAuth = await idemscan(
      ['scan', file, ...creds, '--client-origin', new URL(f.url).origin, '--cache-dir', fresh('cache'), ...fast],
      env,
    );
    expect(noOAuth.exitCode).toBe(2);
    expect(noOAuth.stderr).toContain('--client-secret-env needs --oauth');
    const pathOrigin = await idemscan([
      'scan',
      file,
      '--client-id',
      'ci-machine',
      '--client-origin',
      `${f.url}`,
      '--cache-dir',
      fresh('cache'),
      ...fast,
    ]);
    expect(pathOrigin.stderr).toContain('an origin, as https://host or https://host:port (no path)');
    for (const audit of [['--stored-auth-only'], []]) {
      const r = await idemscan(['audit', f.url, ...audit, ...creds, '--cache-dir', fresh('cache'), ...fast], env);
      expect(r.exitCode, r.stderr).toBe(2);
    }
    // Named for another origin: the listed server fails with kind auth, and never hears of the client.
    const json = fresh('other.json');
    const other = await idemscan(
      [
        'scan',
        file,
        '--oauth',
        '--oauth-timeout',
        '5000',
        ...creds,
        '--client-origin',
        'https://mcp.example.test',
        '--cache-dir',
        fresh('cache'),
        '--json',
        json,
        ...fast,
      ],
      {
        env: { CI_SECRET: SECRET, IDEMSCAN_NO_BROWSER: '1' },
      },
    );
    expect(Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers[0]!.failure?.kind).toBe('auth');
    expect(other.stderr).not.toContain(SECRET);
    expect(tokenRequests(f)).toEqual([]);
    // Named for this one, with --oauth: the grant runs (the one token request of this test).
    const named = await idemscan(
      [
        'scan',
        file,
        '--oauth',
        ...creds,
        '--client-origin',
        new URL(f.url).origin,
        '--cache-dir',
        fresh('cache'),
        ...fast,
      ],
      env,
    );
    expect(named.exitCode, named.stderr).toBe(0);
    expect(tokenRequests(f)).toEqual([expect.stringContaining('token client_credentials')]);
  }, 120_000);
});

describe('SSRF and error bodies', () => {
  it('a 401 pointing at another origin (127.0.0.1 spelled as a number) is not fetched, and an internal service is not quoted', async () => {
    const internal = await hostileHttp({ MODE: 'internal' });
    const port = new URL(internal.url).port;
    const pointers = [
      `http://2130706433:${port}/admin`,
      `http://0177.0.0.1:${port}/admin`,
      `http://[::ffff:127.0.0.1]:${port}/admin`,
      `http://0.0.0.0:${port}/admin`,
    ];
    const challengers = await Promise.all(pointers.map((POINT) => hostileHttp({ MODE: 'challenge', POINT })));
    const ownMetadata = await hostileHttp({ MODE: 'challenge' }); // its own well-known URL answers the internal text
    const file = list('ssrf.json', [
      ...challengers.map((c, i) => ({ name: `pointer-${i}`, url: c.url })),
      { name: 'own-metadata', url: ownMetadata.url },
      { name: 'internal', url: internal.url },
    ]);
    const json = fresh('ssrf-report.json');
    const out = fresh('ssrf-out');
    const r = await idemscan([
      'scan',
      file,
      '--cache-dir',
      fresh('cache'),
      '--json',
      json,
      '--out',
      out,
      '--format',
      'json,html,md,sarif',
      ...fast,
    ]);
    expect(r.exitCode, r.stderr).toBe(3);
    // Only the scan's own requests to the internal service's URL: never /admin.
    expect(internal.hits().filter((h) => h.includes('/admin'))).toEqual([]);
    const report = Report.parse(JSON.parse(readFileSync(json, 'utf8')));
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    for (let i = 0; i < pointers.length; i++)
      expect(byName[`pointer-${i}`]!.auth?.problems?.join('\n')).toContain(
        'refused resource_metadata on another origin',
      );
    expect(byName.internal!.failure?.message).toContain('HTTP 500');
    expect(byName.internal!.failure?.message).toContain('text/plain, not quoted');
    for (const name of ['report.json', 'report.html', 'report.md', 'report.sarif'])
      expect(readFileSync(path.join(out, name), 'utf8')).not.toContain('hunter2');
    expect(r.stdout + r.stderr).not.toContain('hunter2');
  }, 120_000);
});

describe('ok answers that are no JSON-RPC', () => {
  it('an internal service answering 200 is reduced to its size and type: no piece of a JSON parse error, no key name of a validation error', async () => {
    const bodies = {
      text: 'db_password=hunter2',
      object: '{"db_password":"hunter2"}',
      batch: '[{"db_password":"hunter2"}]',
      nested: '{"jsonrpc":"2.0","id":0,"db_password":"hunter2"}',
    };
    const servers = await Promise.all(Object.values(bodies).map((BODY) => hostileHttp({ MODE: 'internal-ok', BODY })));
    const file = list(
      'internal-ok.json',
      Object.keys(bodies).map((name, i) => ({ name, url: servers[i]!.url })),
    );
    const r = await idemscan(['scan', file, '--cache-dir', fresh('cache'), '--json', '-', ...fast]);
    const report = Report.parse(JSON.parse(r.stdout));
    expect(report.servers.map((s) => [s.name, s.failure?.kind, s.failure?.message])).toEqual(
      Object.entries(bodies).map(([name, body]) => [
        name,
        'protocol',
        `not a JSON-RPC message: ${Buffer.byteLength(body)} bytes of application/json`,
      ]),
    );
    expect(r.stdout + r.stderr).not.toMatch(/db_pass|hunter/);
  }, 60_000);
});

describe('stored tokens', () => {
  it('every token of the store is blanked in every report, also where another server echoes it', async () => {
    const access = 'stored-access-horse-battery-staple';
    const refresh = 'stored-refresh-horse-battery-staple';
    const cache = fresh('cache');
    mkdirSync(path.join(cache, 'oauth'), { recursive: true, mode: 0o700 });
    const record = {
      version: 1,
      serverUrl: 'https://payments.example.test/mcp',
      issuer: 'https://auth.example.test/',
      registration: 'dcr',
      tokens: { access_token: access, token_type: 'bearer', refresh_token: refresh },
    };
    writeFileSync(path.join(cache, 'oauth', 'other.json'), JSON.stringify(record), { mode: 0o600 });
    const echo = await hostileHttp({ MODE: 'tools', DESCRIPTION: `Stolen: ${access} and ${refresh}.` });
    const out = fresh('tokens-out');
    const r = await idemscan([
      'scan',
      list('echo.json', [{ name: 'echo', url: echo.url }]),
      '--cache-dir',
      cache,
      '--out',
      out,
      '--format',
      'json,html,md,sarif',
      ...fast,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = readFileSync(path.join(out, 'report.json'), 'utf8');
    expect(report).toContain('Stolen: [REDACTED] and [REDACTED].');
    for (const name of ['report.json', 'report.html', 'report.md', 'report.sarif']) {
      const text = readFileSync(path.join(out, name), 'utf8');
      expect(text.includes(access) || text.includes(refresh), name).toBe(false);
    }
  }, 60_000);
});

describe('stored tokens of other caches and of this scan', () => {
  /** A stdio server that prints every stored access token of the cache dirs it is given, then fails. */
  // Waits (up to 5 s) for a token to be stored: a grant of an HTTP server runs in its own pool, beside this one.
  const READER = `const fs = require('fs'), path = require('path');
const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const has = (d) => fs.existsSync(d) && fs.readdirSync(d).length > 0;
for (const dir of process.argv.slice(1)) {
  const oauth = path.join(dir, 'oauth');
  for (let i = 0; i < 100 && !has(oauth); i++) nap(50);
  for (const f of fs.readdirSync(oauth)) console.error('token: ' + JSON.parse(fs.readFileSync(path.join(oauth, f), 'utf8')).tokens.access_token);
}
process.exit(1);`;

  it("the default cache dir's tokens are blanked too, when the scan has another --cache-dir", async () => {
    const access = 'default-cache-access-horse-battery';
    const defaultCache = fresh('default-cache');
    mkdirSync(path.join(defaultCache, 'oauth'), { recursive: true, mode: 0o700 });
    const record = {
      version: 1,
      serverUrl: 'https://mail.example.test/mcp',
      issuer: 'https://auth.example.test/',
      registration: 'dcr',
      tokens: { access_token: access, token_type: 'bearer' },
    };
    writeFileSync(path.join(defaultCache, 'oauth', 'mail.json'), JSON.stringify(record), { mode: 0o600 });
    const echo = await hostileHttp({ MODE: 'tools', DESCRIPTION: `Stolen: ${access}.` });
    const file = list('default-cache.json', [
      { name: 'echo', url: echo.url },
      { name: 'reader', command: process.execPath, args: ['-e', READER, '--', defaultCache] },
    ]);
    const r = await idemscan(['scan', file, '--cache-dir', fresh('cache'), '--json', '-', ...fast], {
      env: { IDEMSCAN_CACHE: defaultCache },
    });
    expect(r.stdout).toContain('Stolen: [REDACTED].');
    expect(r.stdout).toContain('token: [REDACTED]');
    expect(r.stdout + r.stderr).not.toContain(access);
  }, 60_000);

  it('a token stored during the scan (a client-credentials grant) is blanked in every report, also where another server prints it', async () => {
    const f = await machineFixture();
    const cache = fresh('cache');
    // The grant of the first stores the token the second waits for and prints.
    const file = list('during.json', [
      { name: 'granted', url: f.url },
      { name: 'reader', command: process.execPath, args: ['-e', READER, '--', cache] },
    ]);
    const creds = [
      '--oauth',
      '--client-id',
      'ci-machine',
      '--client-secret-env',
      'CI_SECRET',
      '--client-origin',
      new URL(f.url).origin,
    ];
    const r = await idemscan(
      ['scan', file, ...creds, '--concurrency', '1', '--cache-dir', cache, '--json', '-', ...fast],
      { env: { CI_SECRET: SECRET } },
    );
    const report = Report.parse(JSON.parse(r.stdout));
    expect(report.servers.map((s) => s.status)).toEqual(['ok', 'failed']);
    const [stored] = readdirSync(path.join(cache, 'oauth')).map(
      (name) => JSON.parse(readFileSync(path.join(cache, 'oauth', name), 'utf8')).tokens.access_token as string,
    );
    expect(stored).toBeTruthy();
    expect(report.servers[1]!.failure?.stderr).toContain('token: [REDACTED]');
    expect(r.stdout + r.stderr).not.toContain(stored!);
  }, 60_000);
});

describe('authorization endpoints', () => {
  it('login and --oauth refuse file:, smb:, vscode:, javascript: and plain-http endpoints before printing or opening them', async () => {
    const f = await machineFixture();
    // A desktop session whose browser opener leaves a mark: nothing may be opened.
    const bin = fresh('bin');
    const opened = path.join(bin, 'opened');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(opened)}\n`, { mode: 0o755 });
    const env = { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99' };
    const set = (fields: Record<string, string>) =>
      fetch(new URL('/test/metadata', f.issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fields),
      });
    const bad: Record<string, string>[] = [
      { authorization_endpoint: 'file:///etc/passwd' },
      { authorization_endpoint: 'smb://attacker.example.test/share' },
      { authorization_endpoint: 'vscode://attacker.ext/run?cmd=x' },
      { authorization_endpoint: 'javascript:alert(1)' },
      { authorization_endpoint: 'http://attacker.example.test/authorize' },
      // The endpoint is fine, the token endpoint is plain http to a name that only looks loopback.
      {
        authorization_endpoint: new URL('/authorize', f.issuer).href,
        token_endpoint: 'http://127.0.0.1.example.test:9/token',
      },
    ];
    for (const fields of bad) {
      await set(fields);
      const r = await idemscan(['login', f.url, '--cache-dir', fresh('cache'), '--oauth-timeout', '10000'], { env });
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stderr).toContain('idemscan: login failed: ');
      // javascript: the SDK's metadata schema refuses it first.
      expect(r.stderr).toMatch(/refused an authorization endpoint|token_endpoint: refused|cannot use javascript:/);
      expect(r.stderr).not.toContain('Sign in to');
      for (const v of Object.values(fields).filter((v) => !v.startsWith(f.issuer))) expect(r.stderr).not.toContain(v);
    }
    await set({ authorization_endpoint: 'file:///etc/passwd', token_endpoint: new URL('/token', f.issuer).href });
    const json = fresh('oauth-scan.json');
    const scan = await idemscan(
      ['audit', f.url, '--oauth', '--oauth-timeout', '10000', '--cache-dir', fresh('cache'), '--json', json, ...fast],
      { env },
    );
    expect(scan.exitCode).toBe(3);
    expect(Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers[0]!.failure?.message).toContain(
      'refused an authorization endpoint that is a "file:" URL',
    );
    expect(scan.stderr).not.toContain('/etc/passwd');
    expect(() => readFileSync(opened, 'utf8')).toThrow();
  }, 180_000);
});
