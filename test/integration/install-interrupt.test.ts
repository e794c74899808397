/**
 * A signal while npm installs: npm is ended, and the scan leaves at once with exit 130 and the
 * report of what was done (nothing), not after the 10 s watchdog without one. The registry is a
 * local server that takes npm's request and never answers.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { packageDir } from '../../src/launch/npm-cache.js';

let requests = 0;
const registry = http.createServer(() => void requests++); // never answers
afterAll(() => registry.closeAllConnections?.() ?? registry.close());

it(
  'SIGTERM during the npm install phase ends npm and writes the report with exit 130',
  { timeout: 60_000 },
  async () => {
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const port = (registry.address() as { port: number }).port;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-install-int-'));
    const cache = path.join(dir, 'cache');
    const spec = 'idemscan-hang-probe@1.0.0';
    const file = path.join(dir, 'targets.json');
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'hang', npm: spec }] }));
    const child = execa(process.execPath, [CLI, 'scan', file, '--out', dir, '--cache-dir', cache], {
      reject: false,
      env: {
        npm_config_registry: `http://127.0.0.1:${port}/`,
        npm_config_cache: path.join(dir, 'npm-cache'),
        npm_config_fetch_retries: '0',
      },
    });
    // The marker: npm has asked the registry, so the install is underway.
    const deadline = Date.now() + 40_000;
    while (requests === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(requests).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(130);
    expect(result.stderr).not.toContain('leaving without a report');
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(report.options).toMatchObject({ interrupted: true, scanned: 0, targets: 1 });
    expect(report.servers).toEqual([]);
    // The half-made cache entry is gone: a later scan installs again instead of taking it for installed.
    expect(existsSync(packageDir(cache, spec))).toBe(false);
  },
);
