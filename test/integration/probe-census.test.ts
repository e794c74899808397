/**
 * `idemscan probe-census` (docs/PROBE.md, "The plan library and `probe-census`") through the built
 * CLI, on the fixture library test/fixtures/probe-library/ (two real fixture servers, each under
 * bubblewrap with only its scratch directory writable): the table's rows, the probe reports, a
 * wrong `expect` (exit 1, naming the row), a server that does not start (its error, the other's
 * rows), none that starts (exit 3), and a bad file (exit 2, nothing started).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { BehaviourTable } from '../../src/census/behaviour/behaviour.js';
import { Report } from '../../src/model/schema.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
if (!hasBwrap) console.warn('probe-census.test.ts: skipped, bubblewrap (bwrap) does not work on this machine');

const LIBRARY = path.join(path.dirname(FIXTURES.probeStdio), '..', 'probe-library');
const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-census-')));
const env = { HOME: path.join(dir, 'home'), IDEMSCAN_CACHE: path.join(dir, 'cache') };
mkdirSync(env.HOME);

const census = (args: string[]) => idemscan(['probe-census', ...args], { env });
const tableOf = (out: string) =>
  BehaviourTable.parse(JSON.parse(readFileSync(path.join(out, 'behaviour.json'), 'utf8')));

interface ShopFile {
  server: { args: string[]; env: Record<string, string> };
  expect: Record<string, { outcome: string }>;
  plan: { tools: Record<string, Record<string, unknown>> };
}

/** A library of its own: shop.json as in the fixture library, the server by absolute path, with `change` applied. */
function ownLibrary(name: string, change: (doc: ShopFile) => void, more: Record<string, unknown> = {}) {
  const lib = path.join(dir, name);
  mkdirSync(lib);
  const shop = JSON.parse(readFileSync(path.join(LIBRARY, 'shop.json'), 'utf8')) as ShopFile;
  shop.server.args = [FIXTURES.probeStdio];
  change(shop);
  writeFileSync(path.join(lib, 'shop.json'), JSON.stringify(shop));
  for (const [file, doc] of Object.entries(more)) writeFileSync(path.join(lib, `${file}.json`), JSON.stringify(doc));
  return lib;
}

describe.skipIf(!hasBwrap)('probe-census', () => {
  it(
    'probes the library under the sandbox and writes the table and each probe report',
    { timeout: 90_000 },
    async () => {
      const out = path.join(dir, 'out');
      const run = await census([LIBRARY, '--out', out, '--keep-scratch']);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/will probe 2 servers of .*probe-library \(files, shop\), one at a time/);
      expect(run.stderr).toContain(
        'their effects are real, but confined to a fresh scratch directory per server under --sandbox',
      );
      expect(run.stdout).toMatch(
        /^files 1\.0\.0: 3 experiments: 1 retry-safe, 1 reissue-refused, 1 repeated-effect; 1 agree, 2 understate; \d+ requests, [\d.]+ s$/m,
      );
      expect(run.stdout).toMatch(
        /^shop 1\.0\.0: 4 experiments: 2 retry-safe, 2 repeated-effect; 3 agree, 1 overstate; 20 requests, [\d.]+ s$/m,
      );
      const table = tableOf(out);
      expect(table.method).toMatchObject({
        library: LIBRARY,
        sandbox: true,
        network: 'loopback only (bubblewrap --unshare-net)',
      });
      expect(table.summary).toMatchObject({ servers: 2, experiments: 7, expected: 7, matched: 7 });
      const rows = table.rows.map((r) => [r.server, r.tool, r.case, r.outcome, r.expected, r.agreement]);
      expect(rows).toEqual([
        ['files', 'move_file', undefined, 'reissue-refused', 'reissue-refused', 'understates'],
        ['files', 'write_file', 1, 'retry-safe', 'retry-safe', 'understates'],
        ['files', 'write_file', 2, 'repeated-effect', 'repeated-effect', 'agrees'],
        ['shop', 'create_order', undefined, 'retry-safe', 'retry-safe', 'agrees'],
        ['shop', 'create_invoice', undefined, 'repeated-effect', 'repeated-effect', 'overstates'],
        ['shop', 'set_status', undefined, 'retry-safe', 'retry-safe', 'agrees'],
        ['shop', 'send_sms', undefined, 'repeated-effect', 'repeated-effect', 'agrees'],
      ]);
      expect(table.servers.map((s) => [s.name, s.report, s.error])).toEqual([
        ['files', 'reports/files.json', undefined],
        ['shop', 'reports/shop.json', undefined],
      ]);
      // Each probe report beside the table, as probe writes it: sandboxed, its scratch directory the one writable path.
      const report = Report.parse(JSON.parse(readFileSync(path.join(out, 'reports', 'shop.json'), 'utf8')));
      const scratch = report.options.writable?.[0] ?? '';
      expect(report.servers[0]!.target).toMatchObject({ sandbox: 'bubblewrap', writable: [scratch] });
      // The server wrote its counts into ${scratch}, from inside the sandbox (kept: --keep-scratch).
      expect(run.stderr).toContain(`kept the scratch directory ${scratch}`);
      expect(JSON.parse(readFileSync(path.join(scratch, 'effects.json'), 'utf8'))).toMatchObject({
        orders: 1,
        invoices: 2,
        sms: 2,
      });
      // ${scratch} in the plan: the set-up step's path is the files server's own scratch directory.
      const files = Report.parse(JSON.parse(readFileSync(path.join(out, 'reports', 'files.json'), 'utf8')));
      expect(files.servers[0]!.probeSetup?.calls[0]?.answer).toBe(`wrote ${files.options.writable?.[0]}/seed.txt`);
      expect(readdirSync(out).sort()).toEqual(['behaviour.html', 'behaviour.json', 'behaviour.md', 'reports']);
      for (const kept of [scratch, files.options.writable?.[0] ?? '']) rmSync(kept, { recursive: true, force: true });
      // Run again into the same --out (its reports/ there already): the table is replaced.
      // Its scratch directory in a temp directory of its own: without --keep-scratch none is left.
      const tmp = mkdtempSync(path.join(dir, 'tmpdir-'));
      const again = await idemscan(['probe-census', LIBRARY, '--only', 'shop', '--out', out, '-q'], {
        env: { ...env, TMPDIR: tmp },
      });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toBe('');
      expect(tableOf(out).servers.map((s) => s.name)).toEqual(['shop']);
      const used = Report.parse(JSON.parse(readFileSync(path.join(out, 'reports', 'shop.json'), 'utf8')));
      expect(used.options.writable?.[0]?.startsWith(path.join(tmp, 'idemscan-scratch-shop-'))).toBe(true);
      expect(readdirSync(tmp).filter((f) => f.startsWith('idemscan-scratch-'))).toEqual([]);
    },
  );

  it('exits 1 naming the row whose outcome is not the one the library expects', { timeout: 60_000 }, async () => {
    const lib = ownLibrary('wrong', (shop) => (shop.expect.send_sms!.outcome = 'retry-safe'));
    const out = path.join(dir, 'wrong-out');
    const run = await census([lib, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toContain('shop send_sms: observed repeated-effect, the library expects retry-safe');
    expect(run.stderr).not.toContain('shop create_order: observed');
    expect(tableOf(out).summary).toMatchObject({ expected: 4, matched: 3 });
  });

  it('a server that does not start gets its error; the other still has its rows', { timeout: 60_000 }, async () => {
    const broken = {
      description: 'no such server',
      server: { name: 'broken', command: path.join(dir, 'no-such-server') },
      plan: { tools: { x: {} } },
    };
    const lib = ownLibrary('broken', () => {}, { broken });
    const out = path.join(dir, 'broken-out');
    const run = await census([lib, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(1);
    const table = tableOf(out);
    expect(table.servers[0]).toMatchObject({
      name: 'broken',
      experiments: 0,
      error: expect.stringContaining('no-such-server'),
    });
    expect(table.rows.every((r) => r.server === 'shop')).toBe(true);
    expect(table.rows).toHaveLength(4);
    expect(run.stderr).toMatch(/^idemscan: broken: .*no-such-server/m);
    // --only: just the broken one, and none could be probed.
    const alone = await census([lib, '--only', 'broken', '--out', path.join(dir, 'alone-out')]);
    expect(alone.exitCode, alone.stderr).toBe(3);
  });

  it(
    'SIGINT stops the server being probed, starts no other, and writes the table (exit 130)',
    { timeout: 60_000 },
    async () => {
      const hang = { tools: { hang_forever: { timeoutMs: 30_000 } } };
      const server = (name: string) => ({ name, command: process.execPath, args: [FIXTURES.probeStdio] });
      const lib = path.join(dir, 'hang');
      mkdirSync(lib);
      for (const name of ['a-hang', 'b-next'])
        writeFileSync(
          path.join(lib, `${name}.json`),
          JSON.stringify({ description: 'x', server: server(name), plan: hang }),
        );
      const out = path.join(dir, 'hang-out');
      const child = census([lib, '--out', out]);
      child.stderr?.on('data', (chunk: Buffer) => {
        // Once it said what it will call, the first server is starting or hanging: stop it there.
        if (String(chunk).includes('will probe')) setTimeout(() => child.kill('SIGINT'), 1_500);
      });
      const run = await child;
      expect(run.exitCode, run.stderr).toBe(130);
      const table = tableOf(out);
      expect(table.rows).toEqual([]);
      expect(table.servers.map((s) => s.name)).toEqual(['a-hang', 'b-next']);
      expect(table.servers[1]!.error).toBe('not probed: the run was interrupted');
      expect(table.servers[0]!.error).toBeDefined();
    },
  );

  it('a bad library file is exit 2 naming the file and the field, before anything starts', async () => {
    const calls = path.join(dir, 'bad-calls.log');
    const lib = ownLibrary('bad', (shop) => {
      shop.server.env.CALLS_LOG = calls;
      shop.plan.tools.send_sms!.argumnets = {};
    });
    const out = path.join(dir, 'bad-out');
    const run = await census([lib, '--out', out]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`plan.tools.send_sms: unknown field "argumnets"`);
    expect(run.stderr).toContain(path.join(lib, 'shop.json'));
    expect(run.stderr).not.toContain('will probe');
    expect(existsSync(calls)).toBe(false);
    expect(existsSync(path.join(out, 'behaviour.json'))).toBe(false);
  });

  it('--only without --out is exit 2: a part of the library never replaces the published table', async () => {
    const cwd = mkdtempSync(path.join(dir, 'only-cwd-'));
    const run = await idemscan(['probe-census', LIBRARY, '--only', 'shop'], { env, cwd });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--only probes part of the library: give --out DIR');
    expect(run.stderr).not.toContain('will probe');
    expect(existsSync(path.join(cwd, 'output'))).toBe(false);
  });
});
