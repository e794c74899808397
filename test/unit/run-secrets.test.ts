/** redact/run-secrets.ts: the one owner of a run's secrets, over a token store given as a function. */
import { expect, it } from 'vitest';
import { RunSecrets } from '../../src/redact/run-secrets.js';
import type { Target } from '../../src/targets/types.js';
import { serverReport } from '../helpers/reports.js';

const target: Target = {
  kind: 'command',
  name: 'a',
  source: 't',
  command: 'srv',
  env: { API_TOKEN: 'launch-secret-1' },
};
const said = (text: string) => serverReport([], { failure: { kind: 'protocol', message: text } });
const message = (s: ReturnType<typeof said>) => s.failure?.message;

it("each server's redactor has its launch's secrets, the store's and the command-line client secret", async () => {
  const secrets = await RunSecrets.open(async () => ['stored-token-1'], 'client-secret-1', false);
  const r = secrets.server(target);
  expect(r.text('launch-secret-1 stored-token-1 client-secret-1')).toBe('[REDACTED] [REDACTED] [REDACTED]');
  r.add(['met-code-12345']);
  expect(r.text('met-code-12345')).toBe('[REDACTED]');
});

it('read back after the run: the tokens stored meanwhile; with servers of an earlier run, every stored one', async () => {
  let store = ['old-token-1'];
  const fresh = await RunSecrets.open(async () => store, undefined, false);
  const resumed = await RunSecrets.open(async () => store, undefined, true);
  expect(message(fresh.redactLater(said('old-token-1')))).toBe('old-token-1'); // not settled: nothing more
  store = ['old-token-1', 'new-token-1'];
  await fresh.settle();
  await resumed.settle();
  expect(message(fresh.redactLater(said('old-token-1 new-token-1')))).toBe('old-token-1 [REDACTED]');
  expect(message(resumed.redactLater(said('old-token-1 new-token-1')))).toBe('[REDACTED] [REDACTED]');
});
