/**
 * Discovery bounds what a config adds (MAX_SERVERS_PER_FILE per file, MAX_SERVERS_TOTAL in all)
 * and says, per file, how many entries it left out, on configs of hundreds of thousands of entries.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discover, MAX_SERVERS_PER_FILE, MAX_SERVERS_TOTAL } from '../../src/targets/discover/index.js';

let root: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'idemscan-bounds-'));
  home = path.join(root, 'home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function servers(n: number, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) out[`${prefix}${i}`] = { command: `${prefix}-cmd`, args: [String(i)] };
  return out;
}

function write(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('bounds on what discovery adds', () => {
  it('are in one place and sensible', () => {
    expect(MAX_SERVERS_PER_FILE).toBe(1_000);
    expect(MAX_SERVERS_TOTAL).toBe(5_000);
  });

  it(`a file of 300,000 servers adds ${MAX_SERVERS_PER_FILE}, and a line names the file and how many were left out`, async () => {
    const file = write(path.join(home, '.cursor', 'mcp.json'), { mcpServers: servers(300_000, 's') });
    const got = await discover({ home, platform: 'linux', env: {} });
    expect(got.targets).toHaveLength(MAX_SERVERS_PER_FILE);
    expect(got.files).toEqual([expect.objectContaining({ file, servers: MAX_SERVERS_PER_FILE, leftOut: 299_000 })]);
    expect(got.skipped).toEqual([
      {
        name: 'Cursor',
        source: file,
        reason: '299,000 more entries left out: discovery reads at most 1,000 servers per file and 5,000 in all',
      },
    ]);
    // Before the bound every entry was checked and added (13 s and 421 MB for `where` on such a
    // file): the counts above fail then, with no clock to read.
  });

  it(`all files together add at most ${MAX_SERVERS_TOTAL}; the files past it say what they lost`, async () => {
    const files = [
      path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      path.join(home, '.cursor', 'mcp.json'),
      path.join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      path.join(home, '.lmstudio', 'mcp.json'),
      path.join(home, '.aws', 'amazonq', 'mcp.json'),
      path.join(home, '.gemini', 'settings.json'),
    ];
    files.forEach((f, i) => write(f, { mcpServers: servers(1_200, `f${i}-`) }));
    const got = await discover({ home, platform: 'linux', env: {} });
    expect(got.targets).toHaveLength(MAX_SERVERS_TOTAL);
    const leftOut = got.files.map((f) => f.leftOut ?? 0);
    expect(leftOut.reduce((a, b) => a + b, 0)).toBe(6 * 1_200 - MAX_SERVERS_TOTAL);
    expect(got.skipped.filter((s) => s.reason.includes('left out'))).toHaveLength(6);
  });

  it("Claude Code's projects count against the bound too, however many projects there are", async () => {
    const projects: Record<string, unknown> = {};
    for (let i = 0; i < 3_000; i++) projects[`/p/${i}`] = { mcpServers: servers(1, `p${i}-`) };
    const file = write(path.join(home, '.claude.json'), { mcpServers: servers(10, 'top'), projects });
    const got = await discover({ home, platform: 'linux', env: {}, projectConfigs: true });
    expect(got.targets).toHaveLength(MAX_SERVERS_PER_FILE);
    expect(got.files).toEqual([
      expect.objectContaining({
        file,
        servers: MAX_SERVERS_PER_FILE,
        projectServers: MAX_SERVERS_PER_FILE - 10,
        leftOut: 3_010 - MAX_SERVERS_PER_FILE,
      }),
    ]);
  });
});
