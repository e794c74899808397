#!/usr/bin/env node
/**
 * The command line: parses flags, calls the library, renders, sets the exit code.
 * Exit codes: 0 scanned, 1 --fail-on matched, 2 bad input, a flag or a file (or an internal error,
 * which says so), 3 every target failed, 4 a report file could not be written after the scan
 * (saved to a fallback file, named on stderr), 130 interrupted (cli/exit.ts is the table).
 *
 * Start-up: this file loads only commander, the option parsers and the message template and
 * writer they report through (render/message.ts, cli/say.ts). Each command's module (and the
 * scanner, reporters, zod schemas and SDK behind it) is imported when that command runs, so
 * `--version` and `--help` cost about what `node -e 0` does (bench/startup.bench.ts).
 */
import { DEFAULTS } from '../model/limits.js';
import { Command, CommanderError } from 'commander';
import { DEFAULT_LOCK_FILE, DIFF_FORMATS, FILE_FORMATS, PRINT_FORMATS } from '../model/formats.js';
import { TOOL_VERSION } from '../model/version.js';
import type { AuditFlags, ProbeFlags, ScanFlags } from './flags.js';
import type { ReportFlags } from './report-command.js';
import { registerAuth } from './auth-command.js';
import { clientOriginOption, oauthOptions } from './oauth-flags.js';
import { EXIT } from './exit.js';
import { InputError } from '../model/input-error.js';
import { inputErrorText } from '../render/message.js';
import { bug, setQuiet, tell } from './say.js';
import { intOption, listOption, positiveInt, repeatable, wordParser } from './options.js';
import { registerWhere } from './where-command.js';
import { guardLineStarts } from './line-starts.js';

// A reader that goes away (`idemscan scan | head -1`) is no failure of the scan: what it missed
// is gone, the report files are still written, and the exit code stays the scan's own.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    stream.destroy();
  });
  guardLineStarts(stream);
}

const program = new Command('idemscan')
  .description('Scan MCP servers and tell which tools are safe to retry')
  .version(TOOL_VERSION)
  // The error and commander's suggestion, then where the rest is: the whole help would push both off the screen.
  .showHelpAfterError('see: idemscan --help')
  .exitOverride();

const ALL_FORMATS = [...FILE_FORMATS, ...PRINT_FORMATS];
/** scan, audit and lock print the table (or tools) anyway: --format names the files they write. */
const printsOnly = (word: string) =>
  (PRINT_FORMATS as readonly string[]).includes(word)
    ? `prints only; --format names files to write (${FILE_FORMATS.join(', ')}), and the ${word === 'tools' ? 'tools view' : 'table'} prints unless -q`
    : undefined;
const COMPARE = 'add a trend section: what changed since an earlier report, over the servers in both';
const COMPARE_LATEST = `${COMPARE}; "latest": the newest earlier run of --index`;
const INDEX = 'with --out ROOT/RUN: add the run to ROOT/index.json and ROOT/index.html (the index of published runs)';
const RULES_BASE_URL = 'link each rule to <url>/<rule-id>.md in SARIF (helpUri) and Markdown';
const SARIF_URI = () =>
  repeatable(
    '--sarif-uri <name=path>',
    'point SARIF results about server NAME at PATH, its source file relative to the repository root (a bare PATH: every other server, as in an audit)',
  );

/** The options of scan, audit and lock. `one`: audit scans one server, so it has no --concurrency. */
function scanOptions(cmd: Command, one = false): Command {
  cmd
    .option('--json <path>', 'also write the JSON report to PATH (- for stdout)')
    .option('--out <dir>', 'directory for report files', 'output')
    .addOption(listOption('--format <list>', 'formats to write under --out', FILE_FORMATS, ['json'], printsOnly));
  if (!one) {
    cmd.addOption(intOption('--concurrency <n>', 'stdio servers started at once', DEFAULTS.concurrency));
    cmd.addOption(
      intOption(
        '--http-concurrency <n>',
        'HTTP servers scanned at once (their own pool, beside --concurrency)',
        DEFAULTS.httpConcurrency,
      ),
    );
  }
  return cmd
    .addOption(intOption('--timeout <ms>', 'bound on each server, from start to last page', DEFAULTS.timeoutMs))
    .addOption(
      intOption(
        '--probe-timeout <ms>',
        'how long server/discover may stay silent before trying initialize',
        DEFAULTS.probeTimeoutMs,
      ),
    )
    .addOption(intOption('--max-pages <n>', 'tools/list pages read per server at most', DEFAULTS.maxPages))
    .addOption(
      repeatable(
        '--trust <name>',
        'a server whose hints you trust, by its list key or command file name (audit without --name: also the name the server gives itself)',
        { commas: true },
      ),
    )
    .option(
      '--fail-on <list>',
      'exit 1 when anything matches: a severity (error, warning, info), rule ids, verdicts, drift, profile or a profile id, comma-separated',
    )
    .addOption(
      repeatable(
        '--profile <name>',
        'check every tool against a profile: openai-apps, anthropic-directory or a JSON file',
        { commas: true },
      ),
    )
    .option('--baseline <lock>', 'compare with a lock file (idemscan lock): report.drift, and --fail-on drift')
    .option(
      '--suppress <file>',
      'accepted findings, each with its reason (default: .idemscan-suppress.json when present): kept in the report, dismissed in SARIF, not counted by --fail-on',
    )
    .option('--rules-base-url <url>', RULES_BASE_URL)
    .addOption(SARIF_URI())
    .option(
      '--sandbox',
      'run stdio servers under bubblewrap: no network, no home directories, read-only system (network namespace only, without bwrap; docs/SANDBOX.md)',
    )
    .option('--no-install', 'do not install missing pinned packages (npm, PyPI, .mcpb, OCI)')
    .option('--cache-dir <dir>', 'where pinned packages are installed (default: $IDEMSCAN_CACHE or ~/.cache/idemscan)')
    .option('--allow-sdist', ALLOW_SDIST)
    .option('-q, --quiet', 'no progress or table on the terminal');
}

const commands = () => import('./commands.js');

const ALLOW_SDIST = 'PyPI: also build packages that ship no wheel (runs their build code at install time, unsandboxed)';

/** Target files and project configs are others' lists: `${VAR}` in them reads only these variables. */
const ALLOW_ENV = repeatable(
  '--allow-env <name>',
  'an environment variable that target files and project-scope configs may expand as ${NAME} (none by default)',
  { commas: true },
);

// The OAuth flags (docs/OAUTH.md) on the commands that scan.
const withOAuth = (cmd: Command, audit = false): Command =>
  oauthOptions(scanOptions(cmd, audit), positiveInt('--oauth-timeout'));

withOAuth(program.command('scan'))
  .description('scan every server in one or more target files (default: the bundled reference list)')
  .argument('[files...]', 'target files: idemscan lists, mcpServers configs, VS Code mcp.json, registry server.json')
  .option('--shard <i/n>', 'scan only shard I of N (1-based; by a hash of each server name), e.g. 2/4')
  .option('--discover', "also scan the servers of the MCP clients' user configs found here (see `idemscan where`)")
  .option(
    '--project-configs',
    "with --discover, also scan the project-scope configs of this folder (.vscode/, .cursor/, .mcp.json, ...) and Claude Code's projects entries: a cloned repository's servers",
  )
  .option(
    '--resume',
    'read back the servers an interrupted scan kept in <out>/scan.spool.ndjson and scan only the rest',
  )
  .addOption(ALLOW_ENV)
  .addOption(clientOriginOption())
  .action(async (files: string[], flags: ScanFlags) => (await commands()).scanCommand(files, flags));

withOAuth(program.command('audit'), true)
  .description('scan one server and show every tool with its verdict and evidence')
  .usage('[options] -- COMMAND [ARGS...]  |  [options] URL  |  [options] --tools FILE')
  .argument('[target...]', 'a command and its arguments (after --), or an http(s) URL')
  .option(
    '--tools <file>',
    'classify a saved tools/list result ({"tools": [...]}, a bare array, or one per line) without starting or contacting anything',
  )
  .addOption(repeatable('--header <header>', 'HTTP header "Name: value"'))
  .addOption(repeatable('--env <pair>', 'environment variable NAME=value for a stdio server'))
  .option('--sse', 'the URL is an HTTP+SSE (2024-11-05) endpoint')
  .option('--name <name>', "the server name in the report (default: the URL's host, or the command's file name)")
  .action(async (words: string[], flags: AuditFlags) => (await commands()).auditCommand(words, flags));

program
  .command('probe')
  .description(
    'call the tools a plan names and re-issue each call as a client would after a lost response: is the effect repeated? (real effects: docs/PROBE.md)',
  )
  .usage('--plan PLAN.json [options] -- COMMAND [ARGS...]  |  --plan PLAN.json [options] URL')
  .argument('<target...>', 'a command and its arguments (after --), or an http(s) URL')
  .option(
    '--plan <file>',
    'JSON: the tools to call, their arguments and observers (required; nothing outside it is called)',
  )
  .option('--json <path>', 'also write the JSON report to PATH (- for stdout)')
  .option('--out <dir>', 'directory for report files', 'output')
  .addOption(listOption('--format <list>', 'formats to write under --out', FILE_FORMATS, ['json'], printsOnly))
  .option(
    '--fail-on <list>',
    'exit 1 when a tool has one of these outcomes: repeated-effect, inconclusive, failed (comma-separated)',
  )
  .addOption(intOption('--timeout <ms>', 'bound on connecting and listing, then on each call', DEFAULTS.timeoutMs))
  .addOption(
    intOption(
      '--probe-timeout <ms>',
      'how long server/discover may stay silent before trying initialize',
      DEFAULTS.probeTimeoutMs,
    ),
  )
  .addOption(repeatable('--trust <name>', 'a server whose hints you trust', { commas: true }))
  .addOption(repeatable('--header <header>', 'HTTP header "Name: value"'))
  .addOption(repeatable('--env <pair>', 'environment variable NAME=value for a stdio server'))
  .option('--sse', 'the URL is an HTTP+SSE (2024-11-05) endpoint')
  .option('--name <name>', "the server name in the report (default: the server's own name)")
  .option('--sandbox', 'run a stdio server under bubblewrap (docs/SANDBOX.md)')
  .option('--cache-dir <dir>', 'cache directory (default: $IDEMSCAN_CACHE or ~/.cache/idemscan)')
  .option('-q, --quiet', 'no tool view; the line saying what will be called is printed anyway')
  .action(async (words: string[], flags: ProbeFlags) =>
    (await import('./probe-command.js')).probeCommand(words, flags),
  );

scanOptions(program.command('lock'))
  .description('scan, then pin every tool (definitionHash, verdict, hints) in a lock file for --baseline')
  .argument('[files...]', 'target files, as for scan (default: the bundled reference list)')
  .option('--lock <path>', `the lock file to write (default: ${DEFAULT_LOCK_FILE})`)
  .addOption(ALLOW_ENV)
  .action(async (files: string[], flags: ScanFlags) =>
    (await commands()).scanCommand(files, { ...flags, lock: flags.lock ?? DEFAULT_LOCK_FILE }),
  );

program
  .command('install')
  .description(
    'install the packages of target files into the cache: pinned npm, PyPI, .mcpb and OCI ones, and those npx-style and uvx entries start',
  )
  .argument('<files...>', 'target files')
  .addOption(intOption('--concurrency <n>', 'installs at once', DEFAULTS.concurrency))
  .option('--cache-dir <dir>', 'cache directory (default: $IDEMSCAN_CACHE or ~/.cache/idemscan)')
  .option('--allow-sdist', ALLOW_SDIST)
  .addOption(ALLOW_ENV)
  .action(
    async (
      files: string[],
      flags: { concurrency: number; cacheDir?: string; allowEnv?: string[]; allowSdist?: boolean },
    ) => (await commands()).installCommand(files, flags),
  );

program
  .command('schema')
  .description("print the report's JSON Schema")
  .option('--lock', "print the lock file's JSON Schema instead")
  .action(async (flags: { lock?: boolean }) => {
    const schema = flags.lock
      ? (await import('../model/lock.js')).lockJsonSchema()
      : (await import('../model/schema.js')).reportJsonSchema();
    process.stdout.write(JSON.stringify(schema, null, 2) + '\n');
  });

program
  .command('diff')
  .description('compare two reports: servers, status, tools, verdicts, hints, key arguments, capability')
  .argument('[old]', 'the earlier report.json')
  .argument('[new]', 'the later report.json')
  .option(
    '--format <format>',
    `output (choices: ${DIFF_FORMATS.join(', ')})`,
    wordParser('--format', DIFF_FORMATS),
    'text',
  )
  .option(
    '--fail-on <what>',
    'exit 1 when anything got worse (choices: regression)',
    wordParser('--fail-on', ['regression']),
  )
  .option('--schema', 'print the JSON Schema of --format json and exit')
  .action(
    async (
      a: string | undefined,
      b: string | undefined,
      flags: { format: 'text'; failOn?: string; schema?: boolean },
    ) => (await import('./diff-command.js')).diffCommand(a, b, flags),
  );

program
  .command('merge')
  .description('merge shard reports (scan --shard I/N) into one report, as if one scan had run')
  .argument('<reports...>', 'report.json files')
  .option('--json <path>', 'write the merged JSON report to PATH (- for stdout; the default without --out)')
  .option('--out <dir>', 'directory for the merged report.json (and other --formats)')
  .addOption(listOption('--format <list>', 'formats to write under --out', FILE_FORMATS, ['json'], printsOnly))
  .option('-q, --quiet', 'no summary line on stderr')
  .option('--compare <old.json>', COMPARE_LATEST)
  .option('--index <root>', INDEX)
  .action(
    async (
      files: string[],
      flags: { json?: string; out?: string; format: string[]; quiet?: boolean; compare?: string; index?: string },
    ) => (await import('./merge-command.js')).mergeCommand(files, flags),
  );

program
  .command('report')
  .description('re-render a saved report.json in other formats, without scanning again')
  .argument('<file>', 'a report written by scan or audit (report.json)')
  .addOption(
    listOption('--format <list>', 'formats (files go under --out; table and tools print)', ALL_FORMATS, ['html']),
  )
  .option('--out <dir>', "directory for the files (default: the report file's directory)")
  .option('--rules-base-url <url>', RULES_BASE_URL)
  .addOption(SARIF_URI())
  .option('--compare <old.json>', COMPARE_LATEST)
  .option('--index <root>', 'the run index that --compare latest reads (ROOT/index.json)')
  .action(async (file: string, flags: ReportFlags) => (await import('./report-command.js')).reportCommand(file, flags));

program
  .command('index')
  .description(
    'rebuild the index of published runs (ROOT/index.json and index.html) from the run directories ROOT/*/report.json',
  )
  .argument('<root>', 'the directory of the runs, e.g. output/ecosystem')
  .option(
    '--readme <file>',
    'also write the census block of the newest run into FILE, between <!-- census:start --> and <!-- census:end -->',
  )
  .option('-q, --quiet', 'no wrote lines on stderr')
  .action(async (root: string, flags: { readme?: string; quiet?: boolean }) =>
    (await import('./index-command.js')).indexCommand(root, flags),
  );

const registry = program.command('registry').description('the MCP Registry: pull its servers into a target file');
registry
  .command('pull')
  .description(
    'page the MCP Registry (GET /v0.1/servers) and write the latest active version of each server as a target file scan reads (an existing --out file is updated with what changed)',
  )
  .option('--base-url <url>', 'the registry (default: https://registry.modelcontextprotocol.io)')
  .option(
    '--updated-since <time>',
    'ask only for servers updated since TIME (RFC 3339; default: the pulledAt of an existing --out file)',
  )
  .option('--out <file>', 'the target file to write', 'registry-servers.json')
  .option('-q, --quiet', 'no progress on stderr')
  .action(async (flags: { baseUrl?: string; updatedSince?: string; out: string; quiet?: boolean }) =>
    (await import('./registry-command.js')).pullCommand(flags),
  );

program
  .command('targets')
  .description('work on target files')
  .command('refresh')
  .description(
    're-pin every npm and MCP Registry entry of a target file to the latest version its registry reports, and write the file back (old -> new on stdout)',
  )
  .argument('<file>', 'a target file: an idemscan list ("npm": "name@1.2.3"), a registry pull file or a server.json')
  .option(
    '--base-url <url>',
    'the MCP Registry asked for registry entries (default: https://registry.modelcontextprotocol.io)',
  )
  .option('--cache-dir <dir>', 'where npm view runs (default: $IDEMSCAN_CACHE or ~/.cache/idemscan)')
  .option('--json', 'print the changes as JSON')
  .option('--dry-run', 'print what would change; do not write the file')
  .action(async (file: string, flags: { baseUrl?: string; cacheDir?: string; json?: boolean; dryRun?: boolean }) =>
    (await import('./refresh-command.js')).refreshCommand(file, flags),
  );

registerWhere(program);
registerAuth(program, positiveInt('--oauth-timeout'));
for (const cmd of program.commands) cmd.showHelpAfterError(`see: idemscan ${cmd.name()} --help`);
// The one place -q is read for idemscan's own stderr lines (cli/say.ts): the command's own flag.
program.hook('preAction', (_program, command) => setQuiet(command.opts().quiet));

// Bad input of any kind, wherever it was found, is exit 2 with its message; anything else is a bug.
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof InputError) {
    tell(inputErrorText(err));
    process.exitCode = EXIT.usage;
  } else {
    bug(err);
    process.exitCode = EXIT.usage;
  }
}
