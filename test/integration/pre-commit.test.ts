/**
 * The pre-commit hook (.pre-commit-hooks.yaml, issue 18 item 2) under Debian's `pre-commit`, in a
 * fixture git repository made here, on the real rules fixture server. The hook is the shipped
 * manifest's, made a `repo: local` hook with `language: system` and the built CLI as its entry:
 * `language: node` makes pre-commit `npm install` idemscan from the registry into a fresh
 * environment (about 30 s here, and only with the registry reachable); IDEMSCAN_PRECOMMIT_NODE=1
 * also runs the manifest as shipped, from this repository's HEAD. Exit 1 (findings) and 2 (could
 * not check) are told apart by pre-commit's `- exit code:` line.
 */
import { execa } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { FIXTURES } from '../fixtures/index.js';
import { CLI } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const [hook] = parse(readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];
const home = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pre-commit-home-'));
const hasPreCommit = (await execa('pre-commit', ['--version'], { reject: false })).exitCode === 0;

async function repoWith(config: unknown, files: Record<string, string> = {}): Promise<string> {
  const repo = mkdtempSync(path.join(os.tmpdir(), 'idemscan-pre-commit-'));
  const git = (...args: string[]) => execa('git', args, { cwd: repo });
  await git('init', '-q');
  await git('config', 'user.email', 'test@example.invalid');
  await git('config', 'user.name', 'test');
  writeFileSync(path.join(repo, '.pre-commit-config.yaml'), stringify(config));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(repo, name), text);
  await git('add', '-A');
  await git('commit', '-qm', 'fixture');
  return repo;
}

const preCommit = (repo: string) =>
  execa('pre-commit', ['run', '--all-files', '--color', 'never'], {
    cwd: repo,
    reject: false,
    env: { PRE_COMMIT_HOME: home, SET: undefined },
    timeout: 600_000,
  });

/** The shipped hook as a local one: the same id, name and options, the built CLI for `idemscan`. */
const local = (args: string[]) => ({
  repos: [
    {
      repo: 'local',
      hooks: [
        {
          ...hook,
          language: 'system',
          entry: String(hook!.entry).replace(/^idemscan /, `${process.execPath} ${CLI} `),
          args,
        },
      ],
    },
  ],
});
const server = (set: string) => [
  '--env',
  `SET=${set}`,
  '--probe-timeout',
  '500',
  '-q',
  '--out',
  '.idemscan',
  '--',
  process.execPath,
  FIXTURES.rules,
];

describe.skipIf(!hasPreCommit)('pre-commit hook idemscan-audit', () => {
  it('the manifest: language node, no file names, entry idemscan audit', () => {
    expect(hook).toMatchObject({
      id: 'idemscan-audit',
      language: 'node',
      pass_filenames: false,
      entry: 'idemscan audit',
      always_run: true,
    });
  });

  it('fails with exit code 1 and the findings when --fail-on matches', async () => {
    const r = await preCommit(await repoWith(local(['--fail-on', 'error', ...server('findings')])));
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/idemscan audit\.+Failed\n- hook id: idemscan-audit\n- exit code: 1\n/);
    expect(r.stdout).toContain('malformed-hint (1 finding): rules-findings/bad_hint');
  });

  it('passes on a clean server, and on a committed tool list', async () => {
    expect((await preCommit(await repoWith(local(['--fail-on', 'error', ...server('clean')])))).stdout).toMatch(
      /idemscan audit\.+Passed/,
    );
    const tools = JSON.stringify({
      tools: [{ name: 'get_page', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    });
    const r = await preCommit(
      await repoWith(local(['--tools', 'tools.json', '--fail-on', 'warning', '-q', '--out', '.idemscan']), {
        'tools.json': tools,
      }),
    );
    expect(r.stdout).toMatch(/idemscan audit\.+Passed/);
    expect(r.exitCode).toBe(0);
  });

  it('could not check: exit code 2, told apart from findings', async () => {
    const r = await preCommit(await repoWith(local(['--fail-on', 'eror', ...server('findings')])));
    expect(r.exitCode).toBe(1); // pre-commit's own: some hook failed
    expect(r.stdout).toContain('- exit code: 2\n');
    expect(r.stdout).toContain('--fail-on: unknown "eror"; did you mean "error"?');
  });

  it.runIf(process.env.IDEMSCAN_PRECOMMIT_NODE === '1')(
    'the shipped manifest (language node) from this repository, installed by pre-commit',
    { timeout: 600_000 },
    async () => {
      const rev = (await execa('git', ['rev-parse', 'HEAD'], { cwd: ROOT })).stdout.trim();
      const config = {
        repos: [
          { repo: ROOT, rev, hooks: [{ id: 'idemscan-audit', args: ['--fail-on', 'error', ...server('findings')] }] },
        ],
      };
      const r = await preCommit(await repoWith(config));
      expect(r.stdout).toContain('- exit code: 1\n');
    },
  );
});
