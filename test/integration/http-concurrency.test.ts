/**
 * HTTP targets have a pool of their own (`--http-concurrency`, 64 by default) beside stdio's
 * `--concurrency`: remotes that wait on their network do not queue behind one stdio slot.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { scan } from '../../src/app/scan/scan.js';
import type { TargetInput } from '../../src/targets/types.js';
import { startHostileHttp, type RunningServer } from '../helpers/hostile-http.js';
import { idemscan } from '../helpers/cli.js';

const started: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.close()));
});

const remotes = (url: string, n: number): TargetInput[] =>
  Array.from({ length: n }, (_, i) => ({ name: `remote-${i}`, source: 'test', transport: 'http', url: `${url}/${i}` }));

describe('--http-concurrency', () => {
  it('eight remotes each holding tools/list 1 s finish together at --concurrency 1', async () => {
    const s = await startHostileHttp({ MODE: 'tools', DELAY_MS: '1000' });
    started.push(s);
    const t0 = performance.now();
    const report = await scan(remotes(s.url, 8), { concurrency: 1, probeTimeoutMs: 1_000, timeoutMs: 10_000 });
    const seconds = (performance.now() - t0) / 1000;
    expect(report.servers.map((x) => x.status)).toEqual(Array(8).fill('ok'));
    // Together, not one at a time (the stdio pool's 1): the run takes far less than its servers'
    // times added up (each holds its listing 1 s). A ratio, not a bound in seconds, so a busy
    // machine that slows every server alike does not fail it; one at a time the ratio is 1 or more.
    const summed = report.servers.reduce((n, x) => n + x.durationMs, 0) / 1000;
    expect(summed).toBeGreaterThanOrEqual(8);
    expect(seconds / summed).toBeLessThan(0.5);
    expect(report.options).toMatchObject({ concurrency: 1, httpConcurrency: 64 });
  });

  it('the CLI records --http-concurrency in report.options and the manifest, and bounds the pool by it', async () => {
    const s = await startHostileHttp({ MODE: 'tools', DELAY_MS: '600' });
    started.push(s);
    const { mkdtemp, writeFile, readFile } = await import('node:fs/promises');
    const dir = await mkdtemp('/tmp/idemscan-httpc-');
    const list = { servers: remotes(s.url, 4).map((t) => ({ name: t.name, url: t.url })) };
    await writeFile(`${dir}/targets.json`, JSON.stringify(list));
    const t0 = performance.now();
    const r = await idemscan([
      'scan',
      `${dir}/targets.json`,
      '--http-concurrency',
      '1',
      '--out',
      dir,
      '--format',
      'json,manifest',
      '-q',
      '--probe-timeout',
      '1000',
    ]);
    const seconds = (performance.now() - t0) / 1000;
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(await readFile(`${dir}/report.json`, 'utf8')) as { options: Record<string, unknown> };
    expect(report.options).toMatchObject({ concurrency: 4, httpConcurrency: 1 });
    const manifest = JSON.parse(await readFile(`${dir}/manifest.json`, 'utf8')) as { options: Record<string, unknown> };
    expect(manifest.options).toMatchObject({ concurrency: 4, httpConcurrency: 1 });
    expect(seconds).toBeGreaterThan(2.4); // four one after the other
  });
});
