/**
 * A copy of test/fixtures/discover-home (a Linux HOME with one real-looking file per MCP client,
 * and a project folder) in a temporary folder, its placeholders replaced by the fixture servers:
 * `@@NODE@@` node itself, `@@LEGACY@@`/`@@DUAL@@`/`@@MODERN@@` the fixture scripts.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from '../fixtures/index.js';

const TREE = fileURLToPath(new URL('../fixtures/discover-home', import.meta.url));

export interface DiscoverHome {
  home: string;
  project: string;
  cleanup(): void;
}

export function discoverHome(): DiscoverHome {
  const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-discover-'));
  cpSync(TREE, root, { recursive: true });
  const values: Record<string, string> = {
    '@@NODE@@': process.execPath,
    '@@LEGACY@@': FIXTURES.legacyStdio,
    '@@DUAL@@': FIXTURES.dualStdio,
    '@@MODERN@@': FIXTURES.modernStdio,
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else
        writeFileSync(
          file,
          readFileSync(file, 'utf8').replace(/@@[A-Z]+@@/g, (m) => values[m] ?? m),
        );
    }
  };
  walk(root);
  return {
    home: path.join(root, 'home'),
    project: path.join(root, 'project'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** An empty HOME (and project folder): nothing to discover. */
export function emptyHome(): DiscoverHome {
  const root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-discover-empty-'));
  for (const d of ['home', 'project']) cpSync(os.devNull, path.join(root, d, '.keep'), { force: true });
  return {
    home: path.join(root, 'home'),
    project: path.join(root, 'project'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
