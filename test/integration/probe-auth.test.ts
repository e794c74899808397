/**
 * `idemscan probe` over HTTP with a stored, refreshable OAuth token (oauth-servers.mjs MODE=probe):
 * the server carries out the first call of create_invoice, revokes the token and answers 401. The
 * SDK's transport refreshes the token and would post the same call again; a probe call goes out
 * once (docs/PROBE.md), so that call fails, and the next tool runs with the refreshed token. The
 * calls are counted where they land: the server logs every tools/call it receives.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { idemscan } from '../helpers/cli.js';
import { login, startOAuthFixture, type OAuthFixture } from '../helpers/oauth.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-probe-auth-'));
let fixture: OAuthFixture | undefined;
afterAll(async () => fixture?.close());

/** How many tools/call of `tool` the server received. */
const received = (stderr: string, tool: string) =>
  stderr.split('\n').filter((line) => line === `oauth-servers: tools/call ${tool}`).length;

it('never sends a probe call again after the server answered it 401, whatever the transport does', async () => {
  const effects = path.join(dir, 'effects.json');
  fixture = await startOAuthFixture({ MODE: 'probe', UNAUTHORIZED_AFTER: 'create_invoice', EFFECTS_FILE: effects });
  const cache = path.join(dir, 'cache');
  const signedIn = await login(fixture.url, cache);
  expect(signedIn.exitCode, signedIn.stderr).toBe(0);

  const plan = path.join(dir, 'plan.json');
  const observe = { tool: 'get_counts' };
  writeFileSync(
    plan,
    JSON.stringify({
      tools: {
        create_invoice: { arguments: { amount: 5 }, observe },
        send_sms: { arguments: { to: '+100', body: 'hello' }, observe },
      },
    }),
  );
  const json = path.join(dir, 'report.json');
  const run = await idemscan(['probe', '--plan', plan, '--cache-dir', cache, '--json', json, fixture.url]);
  expect(run.exitCode, run.stderr).toBe(0);

  const log = fixture.stderr();
  expect(log).toContain('refreshed');
  expect(received(log, 'create_invoice')).toBe(1);
  expect(received(log, 'send_sms')).toBe(2);
  expect(JSON.parse(readFileSync(effects, 'utf8'))).toMatchObject({ invoices: 1, sms: 2 });

  const tools = Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers[0]!.tools;
  const probeOf = (name: string) => tools.find((t) => t.name === name)!.probe!;
  expect(probeOf('create_invoice').outcome).toBe('failed');
  expect(probeOf('create_invoice').evidence.reason).toBe(
    'call (create_invoice) no answer: refused (answered HTTP 401; not sent again: the server may have carried it out (a probe call goes out once))',
  );
  // The connection and the refreshed token serve the next tool.
  expect(probeOf('send_sms').outcome).toBe('repeated-effect');
}, 180_000);
