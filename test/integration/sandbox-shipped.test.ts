/**
 * Files a target list ships beside it (`${workspaceFolder}/fake/...`) reach its server under
 * bubblewrap read-only, wherever the list lives (here under HOME, which the sandbox hides), and
 * nothing else of the list's folder or around it does.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/index.js';
import { idemscan } from '../helpers/cli.js';
import { sandboxPrefix } from '../../src/launch/sandbox.js';
import { Report } from '../../src/model/schema.js';

const hasBwrap = sandboxPrefix()?.[0] === 'bwrap';
if (!hasBwrap) console.warn('sandbox-shipped.test.ts: skipped, bubblewrap (bwrap) does not work on this machine');

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'idemscan-shipped-')));

/** A server that starts only when it reads its cwd's config and each NEED_* file, and cannot write CHECK_WRITE. */
const SERVER = [
  '--input-type=module',
  '-e',
  `import fs from 'node:fs'; fs.readFileSync('panda.config.mjs');
   for (const [k, v] of Object.entries(process.env)) if (k.startsWith('NEED_')) fs.readFileSync(v);
   if (process.env.CHECK_WRITE) { try { fs.writeFileSync(process.env.CHECK_WRITE, 'x'); process.exit(4); } catch {} }
   await import(process.argv[1]);`,
  // A path argument, so that the sandbox shows it wherever the checkout is (under /tmp in CI).
  FIXTURES.probeStdio,
];

describe.skipIf(!hasBwrap)('files a target list ships', () => {
  it(
    'reach its server read-only under --sandbox from a list under HOME; dot files and files beside the folder do not',
    { timeout: 90_000 },
    async () => {
      const home = path.join(dir, 'home');
      const project = path.join(home, 'src', 'lists');
      mkdirSync(path.join(project, 'fake', 'panda'), { recursive: true });
      writeFileSync(path.join(project, 'fake', 'keys.json'), '{}');
      writeFileSync(path.join(project, 'fake', 'panda', 'panda.config.mjs'), 'export default {}');
      writeFileSync(path.join(project, '.env'), 'SECRET=1');
      writeFileSync(path.join(home, 'src', 'beside.txt'), 'not shipped');
      const ws = '${workspaceFolder}';
      const entry = (env: Record<string, string>) => ({
        command: process.execPath,
        args: SERVER,
        env,
        cwd: `${ws}/fake/panda`,
      });
      const list = path.join(project, 'targets.json');
      writeFileSync(
        list,
        JSON.stringify({
          mcpServers: {
            shipped: entry({ NEED_KEYS: `${ws}/fake/keys.json`, CHECK_WRITE: `${ws}/fake/keys.json` }),
            dotfile: entry({ NEED_DOT: `${ws}/.env` }),
            beside: entry({ NEED_BESIDE: `${ws}/../beside.txt` }),
          },
        }),
      );
      const json = path.join(dir, 'report.json');
      const env = { HOME: home, IDEMSCAN_CACHE: path.join(dir, 'cache') };
      const run = await idemscan(['scan', '--sandbox', list, '--json', json, '--timeout', '20000'], { env });
      const servers = Report.parse(JSON.parse(readFileSync(json, 'utf8'))).servers;
      const byName = (name: string) => servers.find((s) => s.name === name)!;
      expect(byName('shipped').status, run.stderr).toBe('ok');
      expect(byName('dotfile').status).toBe('failed');
      expect(byName('dotfile').failure!.message).toContain(`the sandbox hid ${project}/.env (env NEED_DOT) from it`);
      expect(byName('beside').status).toBe('failed');
      expect(readFileSync(path.join(project, 'fake', 'keys.json'), 'utf8')).toBe('{}');
    },
  );
});
