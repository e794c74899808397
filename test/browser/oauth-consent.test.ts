/**
 * The sign-in a person does: `idemscan audit URL --oauth` prints the authorization URL, Chromium
 * opens it, the consent page's Allow button is clicked, the browser lands on idemscan's loopback
 * listener, and the scan goes on with the token.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { Browser } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { CLI } from '../helpers/cli.js';
import { authorizationUrl, startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';
import { launch } from './browser.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oauth-browser-'));
let fixture: OAuthFixture | undefined;
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

it('signs in through the consent page in Chromium during `audit --oauth`', async () => {
  fixture = await startOAuthFixture({ MODE: 'dcr' });
  const json = path.join(dir, 'report.json');
  const child = execa(
    process.execPath,
    [
      CLI,
      'audit',
      fixture.url,
      '--oauth',
      '--oauth-timeout',
      '150000',
      '--cache-dir',
      path.join(dir, 'cache'),
      '--json',
      json,
      '--probe-timeout',
      '500',
      '--timeout',
      '20000',
    ],
    { reject: false, timeout: 200_000, env: { IDEMSCAN_NO_BROWSER: '1' } },
  );
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await authorizationUrl(() => stderr);

  browser = await launch();
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  expect(await page.locator('h1').textContent()).toBe('Allow idemscan?');
  await Promise.all([page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/), page.click('#allow')]);
  expect(await page.textContent('body')).toContain('Signed in');

  const res = await child;
  expect(res.exitCode, res.stdout + stderr).toBe(0);
  const server = Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers[0]!;
  expect(server.status).toBe('ok');
  expect(server.tools.length).toBeGreaterThan(0);
  expect(server.auth).toMatchObject({ status: 401, registration: 'dcr', signedIn: true });
}, 240_000);
