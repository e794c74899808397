/**
 * Figures for docs/SANDBOX.md: processes left after each escape of hostile-escape.mjs, with and
 * without --sandbox, and what the probe server could read, write and reach.
 *   node --import tsx bench/escape-figures.ts
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { scan } from '../src/app/scan/scan.js';
import { FIXTURES } from '../test/fixtures/index.js';
import { waitGone } from '../test/helpers/processes.js';
import { killTagged, tagged } from '../test/helpers/tagged.js';

const target = (mode: string, env: Record<string, string>) => ({
  name: mode,
  source: 'figures',
  transport: 'stdio' as const,
  command: process.execPath,
  args: [FIXTURES.hostileEscape],
  env: { MODE: mode, ...env },
});

for (const sandbox of [false, true]) {
  const row: string[] = [];
  for (const mode of ['setsid', 'detached', 'pgroup', 'daemon']) {
    const tag = randomUUID();
    const report = await scan([target(mode, { ESCAPE_TAG: tag })], { sandbox, timeoutMs: 20_000 });
    const s = report.servers[0]!;
    const left = await waitGone(tagged(tag), 2000);
    row.push(`${mode}: ${s.status === 'ok' ? left.length : `failed (${s.failure?.message})`}`);
    killTagged(tag);
  }
  console.log(`processes left ${sandbox ? 'with' : 'without'} --sandbox: ${row.join(', ')}`);
}

// The probe: a HOME with planted secrets, a directory outside, a non-loopback listener.
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-figures-'));
const home = path.join(dir, 'home');
for (const [file, text] of [
  ['.ssh/id_rsa', 'SSH-KEY'],
  ['.npmrc', '//registry.npmjs.org/:_authToken=NPM-TOKEN'],
  ['.aws/credentials', 'AWS-SECRET'],
] as const) {
  mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
  writeFileSync(path.join(home, file), text);
}
const outside = path.join(dir, 'outside');
const project = path.join(dir, 'project');
mkdirSync(outside);
mkdirSync(project);
const ip =
  Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? '192.0.2.1';
const listener = net.createServer((s) => s.destroy()).listen(0, '0.0.0.0');
await new Promise((r) => listener.once('listening', r));
const port = (listener.address() as net.AddressInfo).port;
const realHome = process.env.HOME;
process.env.HOME = home;
for (const sandbox of [false, true]) {
  const tag = randomUUID();
  for (const f of [
    path.join(home, 'probe-written'),
    path.join(outside, 'probe-written'),
    path.join(project, 'probe-written'),
  ])
    rmSync(f, { force: true });
  const probe = {
    ...target('probe', { PROBE_WRITE_DIR: outside, PROBE_TAG: tag, PROBE_CONNECT: `${ip}:${port}` }),
    cwd: project,
  };
  const report = await scan([probe], { sandbox });
  const s = report.servers[0]!;
  console.log(`probe ${sandbox ? `with --sandbox (${s.target.sandbox})` : 'without --sandbox'}:`);
  for (const t of s.tools) console.log(`  ${t.name}: ${t.description}`);
  const written = (f: string) => (existsSync(f) ? 'yes' : 'no');
  console.log(
    `  on the host: HOME written ${written(path.join(home, 'probe-written'))}, /tmp written ${written(`/tmp/idemscan-probe-${tag}`)}, outside written ${written(path.join(outside, 'probe-written'))}, cwd written ${written(path.join(project, 'probe-written'))}`,
  );
  rmSync(`/tmp/idemscan-probe-${tag}`, { force: true });
}
process.env.HOME = realHome;
listener.close();
