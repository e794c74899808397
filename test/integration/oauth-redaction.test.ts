/**
 * The redaction test's OAuth part: a server that echoes the bearer token idemscan obtained (client
 * credentials) in a tool description, in serverInfo, and in an error body. The token, which only
 * the OAuth flow knew, is blanked in every report format, on stdout and on stderr.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { idemscan } from '../helpers/cli.js';
import { startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oauth-redaction-'));
let fixture: OAuthFixture | undefined;
afterAll(async () => fixture?.close());

it('blanks an echoed OAuth access token in JSON, HTML, Markdown, SARIF, stdout and stderr', async () => {
  const secret = 'EchoMachineSecret4Rt8Yu';
  fixture = await startOAuthFixture({ MODE: 'echo', MACHINE_ID: 'echo-machine', MACHINE_SECRET: secret });
  const list = path.join(dir, 'targets.json');
  writeFileSync(
    list,
    JSON.stringify({
      servers: [
        { name: 'echo', url: fixture.url },
        { name: 'echo-fail', url: fixture.url.replace(/\/mcp$/, '/mcp-fail') },
      ],
    }),
  );
  // The machine client is for the fixture's origin only, and its grant runs with --oauth.
  const client = [
    '--oauth',
    '--client-id',
    'echo-machine',
    '--client-secret-env',
    'ECHO_SECRET',
    '--client-origin',
    new URL(fixture.url).origin,
  ];
  const out = path.join(dir, 'out');
  const cache = path.join(dir, 'cache');
  const res = await idemscan(
    [
      'scan',
      list,
      ...client,
      '--out',
      out,
      '--format',
      'json,html,md,sarif',
      '--cache-dir',
      cache,
      '--probe-timeout',
      '500',
      '--timeout',
      '20000',
    ],
    {
      env: { ECHO_SECRET: secret },
    },
  );
  expect(res.exitCode, res.stderr).toBe(0);

  const oauthDir = path.join(cache, 'oauth');
  const tokens = readdirSync(oauthDir).map(
    (f) => JSON.parse(readFileSync(path.join(oauthDir, f), 'utf8')).tokens.access_token as string,
  );
  expect(tokens).toHaveLength(2);

  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
  const echo = report.servers.find((s: { name: string }) => s.name === 'echo');
  const fail = report.servers.find((s: { name: string }) => s.name === 'echo-fail');
  // The echoes happened, and were blanked: the description, serverInfo and the error body.
  expect(echo.tools.find((t: { name: string }) => t.name === 'whoami').description).toContain('[REDACTED]');
  expect(echo.serverInfo.version).toContain('[REDACTED]');
  expect(fail.failure.message).toContain('internal error while serving token [REDACTED]');

  const files = readdirSync(out).map((f) => ({ name: f, text: readFileSync(path.join(out, f), 'utf8') }));
  expect(files.map((f) => f.name).sort()).toEqual(['report.html', 'report.json', 'report.md', 'report.sarif']);
  for (const { name, text } of [...files, { name: 'stdout', text: res.stdout }, { name: 'stderr', text: res.stderr }]) {
    for (const token of tokens) {
      expect(text.includes(token), `${name} holds an access token`).toBe(false);
      // Nor a recognisable piece of one (its random part, either half).
      const random = token.slice(3);
      expect(
        text.includes(random.slice(0, 16)) || text.includes(random.slice(-16)),
        `${name} holds part of an access token`,
      ).toBe(false);
    }
    expect(text.includes(secret), `${name} holds the client secret`).toBe(false);
  }
}, 180_000);
