/**
 * OCI targets where no container engine runs containers (these machines: docker's CLI without a
 * daemon, podman that cannot start one): each entry fails at once, kind `spawn`, saying so; an
 * unpinned image is refused when the file is read. The exact `docker run` line is in the unit tests.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { Report } from '../../src/model/schema.js';
import { findEngine } from '../../src/launch/oci.js';
import { idemscan } from '../helpers/cli.js';

it.skipIf(!('error' in findEngine()))(
  'fails each OCI entry with kind spawn when no engine works, and refuses unpinned images',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-oci-'));
    const file = path.join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify({
        servers: [
          { name: 'img', oci: 'ghcr.io/example/mcp-server:1.2.3', env: { API_TOKEN: 'oci-secret-7a6b5c4d' } },
          { name: 'digest', oci: `ghcr.io/example/mcp-server@sha256:${'b'.repeat(64)}` },
          { name: 'latest', oci: 'ghcr.io/example/mcp-server:latest' },
          { name: 'untagged', oci: 'ghcr.io/example/mcp-server' },
        ],
      }),
    );
    const started = performance.now();
    const scan = await idemscan([
      'scan',
      file,
      '--cache-dir',
      path.join(dir, 'cache'),
      '--sandbox',
      '--json',
      '-',
      '--out',
      dir,
    ]);
    const ms = Math.round(performance.now() - started);
    const report = Report.parse(JSON.parse(scan.stdout));
    expect(report.servers.map((s) => s.name)).toEqual(['img', 'digest']);
    for (const s of report.servers) {
      expect(s.failure?.kind).toBe('spawn');
      expect(s.failure?.message).toMatch(
        /^no container engine works on this machine \(docker: .+\): OCI servers need docker or podman$/,
      );
      expect(s.target.oci).toMatch(/^ghcr\.io\/example\/mcp-server[:@]/);
    }
    expect(scan.stdout).not.toContain('oci-secret-7a6b5c4d');
    expect(scan.stderr).toMatch(
      /skipped latest .*"latest" is not pinned; expected "registry\/name:tag" \(not "latest"\) or "name@sha256:\.\.\."/,
    );
    expect(scan.stderr).toMatch(/skipped untagged .*no tag, so "latest" \(unpinned\)/);
    const install = await idemscan(['install', file, '--cache-dir', path.join(dir, 'cache')]);
    expect(install.stdout).toMatch(/FAILED oci:ghcr\.io\/example\/mcp-server:1\.2\.3/);
    expect(install.exitCode).not.toBe(0);
    console.log(`oci scan without an engine: ${ms} ms; refusal: ${report.servers[0]!.failure!.message}`);
  },
);
