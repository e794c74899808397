#!/usr/bin/env node
/**
 * The command line: parses flags, calls the library, renders, sets the exit code.
 * Exit codes: 0 scanned, 1 --fail-on matched, 2 usage or target-file error, 3 every target failed,
 * 4 a report file could not be written after the scan (saved to a fallback file, named on stderr).
 */
import { Command, CommanderError } from 'commander';
import { lockJsonSchema } from '../compare/lock.js';
import { reportJsonSchema } from '../report/schema.js';
import { TOOL_VERSION } from '../version.js';
import { auditCommand, installCommand, scanCommand } from './commands.js';
import { registerDiff } from './diff-command.js';
import { registerLock } from './lock-command.js';
import { registerMerge } from './merge-command.js';
import { registerReportCommand } from './report-command.js';
import { registerWhere } from './where-command.js';
import { oauthOptions, registerAuth } from './auth-command.js';
import { EXIT, UsageError } from './exit.js';

// A reader that goes away (`idemscan scan | head -1`) is no failure of the scan: what it missed
// is gone, the report files are still written, and the exit code stays the scan's own.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    stream.destroy();
  });
}

const program = new Command('idemscan')
  .description('Scan MCP servers and tell which tools are safe to retry')
  .version(TOOL_VERSION)
  .showHelpAfterError()
  .exitOverride();

function scanOptions(cmd: Command): Command {
  return cmd
    .option('--json <path>', 'also write the JSON report to PATH (- for stdout)')
    .option('--out <dir>', 'directory for report files', 'output')
    .option('--format <list>', 'formats to write under --out, comma-separated', 'json')
    .option('--concurrency <n>', 'servers scanned at once', toInt, 4)
    .option('--timeout <ms>', 'bound on each server, from start to last page', toInt, 30_000)
    .option('--probe-timeout <ms>', 'how long server/discover may stay silent before trying initialize', toInt, 2_000)
    .option('--max-pages <n>', 'tools/list pages read per server at most', toInt, 64)
    .option('--trust <names...>', 'servers whose hints you trust')
    .option('--fail-on <list>', 'exit 1 when anything matches: a severity, rule ids, verdicts, drift, profile or a profile id, comma-separated')
    .option('--profile <name>', 'check every tool against a profile: openai-apps, anthropic-directory or a JSON file (repeatable)', collect, [])
    .option('--baseline <lock>', 'compare with a lock file (idemscan lock): report.drift, and --fail-on drift')
    .option('--rules-base-url <url>', 'link each rule to <url>/<rule-id>.md in SARIF (helpUri) and Markdown')
    .option('--sandbox', 'run stdio servers under bubblewrap: no network, no home directories, read-only system (network namespace only, without bwrap; docs/SANDBOX.md)')
    .option('--no-install', 'do not install missing pinned npm packages')
    .option('--cache-dir <dir>', 'where pinned npm packages are installed')
    .option('-q, --quiet', 'no progress or table on the terminal');
}

// The OAuth flags (docs/OAUTH.md) on the commands that scan.
const withOAuth = (cmd: Command): Command => oauthOptions(scanOptions(cmd), toInt);

withOAuth(program.command('scan'))
  .description('scan every server in one or more target files (default: the bundled reference list)')
  .argument('[files...]', 'target files: idemscan lists, mcpServers configs, VS Code mcp.json, registry server.json')
  .option('--shard <i/n>', 'scan only shard I of N (1-based; by a hash of each server name), e.g. 2/4')
  .option('--discover', 'also scan the servers configured in the MCP clients found here (see `idemscan where`)')
  .action(scanCommand);

withOAuth(program.command('audit'))
  .description('scan one server and show every tool with its verdict and evidence')
  .usage('[options] -- COMMAND [ARGS...]  |  [options] URL')
  .argument('<target...>', 'a command and its arguments (after --), or an http(s) URL')
  .option('--header <header...>', 'HTTP header "Name: value" (repeatable)')
  .option('--env <pair...>', 'environment variable NAME=value for a stdio server (repeatable)')
  .option('--sse', 'the URL is an HTTP+SSE (2024-11-05) endpoint')
  .option('--name <name>', 'the server name in the report')
  .action(auditCommand);

registerLock(program, scanOptions);

program
  .command('install')
  .description('install the pinned npm packages of target files into the cache')
  .argument('<files...>', 'target files')
  .option('--concurrency <n>', 'installs at once', toInt, 4)
  .option('--cache-dir <dir>', 'cache directory')
  .action(installCommand);

program
  .command('schema')
  .description("print the report's JSON Schema")
  .option('--lock', "print the lock file's JSON Schema instead")
  .action((flags: { lock?: boolean }) => {
    process.stdout.write(JSON.stringify(flags.lock ? lockJsonSchema() : reportJsonSchema(), null, 2) + '\n');
  });

registerDiff(program);
registerMerge(program);
registerReportCommand(program);
registerWhere(program);
registerAuth(program, toInt);

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function toInt(value: string): number {
  const n = Number(value);
  // setTimeout's limit (about 24.8 days): a larger value would fire at once.
  if (!Number.isInteger(n) || n <= 0 || n > 2_147_483_647) throw new UsageError(`expected a positive whole number up to 2147483647, got "${value}"`);
  return n;
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof UsageError) {
    process.stderr.write(`idemscan: ${err.message}\n`);
    process.exitCode = EXIT.usage;
  } else {
    process.stderr.write(`idemscan: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = EXIT.usage;
  }
}
