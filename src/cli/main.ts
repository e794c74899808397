#!/usr/bin/env node
/** The command line: declares the commands, runs one, sets the exit code; start-up loads only this (docs/INTERNALS.md). */
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_LOCK_FILE, FILE_FORMATS, PRINT_FORMATS } from '../model/formats.js';
import { TOOL_VERSION } from '../model/version.js';
import { invocation } from '../model/invocation.js';
import { InputError } from '../model/input-error.js';
import { inputErrorText } from '../render/message.js';
import { EXIT } from '../shell/exit.js';
import {
  auditFlags,
  diffFlags,
  fileFormats,
  installFlags,
  lockFlags,
  probeFlags,
  replaceRun,
  rulesBaseUrl,
  sarifUri,
  scanFlags,
} from './flags.js';
import { examplesText } from './examples.js';
import { guardLineStarts } from './line-starts.js';
import { listOption, quiet } from '../shell/options.js';
import { registerAuth } from './auth-command.js';
import { registerWhere } from './where-command.js';
import { registerProbeCensus, registerPublishing } from '../census/cli/register.js';
import { bug, setQuiet, tell } from '../shell/say.js';

// A reader that goes away (`idemscan scan | head -1`) is no failure of the scan: what it missed
// is gone, the report files are still written, and the exit code stays the scan's own.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    stream.destroy();
  });
  guardLineStarts(stream);
}

const commands = () => import('./commands.js');
const COMPARE_LATEST =
  'add a trend section: what changed since an earlier report, over the servers in both; "latest": the newest earlier run of --index';

function scanning(program: Command): void {
  scanFlags(program.command('scan'))
    .description('scan every server in one or more target files (default: the bundled reference list)')
    .argument('[files...]', 'target files: idemscan lists, mcpServers configs, VS Code mcp.json, registry server.json')
    .action(async (files, flags) => (await commands()).scanCommand(files, flags));
  auditFlags(program.command('audit'))
    .description('scan one server and show every tool with its verdict and evidence')
    .usage('[options] -- COMMAND [ARGS...]  |  [options] URL  |  [options] --tools FILE')
    .argument('[target...]', 'a command and its arguments (after --), or an http(s) URL')
    .action(async (words, flags) => (await commands()).auditCommand(words, flags));
  probeFlags(program.command('probe'))
    .description(
      'call the tools a plan names and re-issue each call as a client would after a lost response: is the effect repeated? (real effects: docs/PROBE.md)',
    )
    .usage('--plan PLAN.json [options] -- COMMAND [ARGS...]  |  --plan PLAN.json [options] URL')
    .argument('<target...>', 'a command and its arguments (after --), or an http(s) URL')
    .action(async (words, flags) => (await import('./probe-command.js')).probeCommand(words, flags));
  registerProbeCensus(program);
  lockFlags(program.command('lock'))
    .description('scan, then pin every tool (definitionHash, verdict, hints) in a lock file for --baseline')
    .argument('[files...]', 'target files, as for scan (default: the bundled reference list)')
    .action(async (files, flags) =>
      (await commands()).scanCommand(files, { ...flags, lock: flags.lock ?? DEFAULT_LOCK_FILE }),
    );
  installFlags(program.command('install'))
    .description(
      'install the packages of target files into the cache: pinned npm, PyPI, .mcpb and OCI ones, and those npx-style and uvx entries start',
    )
    .argument('<files...>', 'target files')
    .action(async (files, flags) => (await import('./install-command.js')).installCommand(files, flags));
}

function reading(program: Command): void {
  program
    .command('schema')
    .description("print the report's JSON Schema")
    .option('--lock', "print the lock file's JSON Schema instead")
    .action(async (flags) => {
      const schema = flags.lock
        ? (await import('../model/lock.js')).lockJsonSchema()
        : (await import('../model/schema.js')).reportJsonSchema();
      process.stdout.write(JSON.stringify(schema, null, 2) + '\n');
    });
  diffFlags(program.command('diff'))
    .description('compare two reports: servers, status, tools, verdicts, hints, key arguments, capability')
    .argument('[old]', 'the earlier report.json')
    .argument('[new]', 'the later report.json')
    .action(async (a, b, flags) => (await import('./diff-command.js')).diffCommand(a, b, flags));
  merging(program);
}

function merging(program: Command): void {
  program
    .command('merge')
    .description('merge shard reports (scan --shard I/N) into one report, as if one scan had run')
    .argument('<reports...>', 'report.json files')
    .option('--json <path>', 'write the merged JSON report to PATH (- for stdout; the default without --out)')
    .option('--out <dir>', 'directory for the merged report.json (and other --formats)')
    .addOption(fileFormats())
    .addOption(quiet('no summary line on stderr'))
    .option('--compare <old.json>', COMPARE_LATEST)
    .option(
      '--index <root>',
      'with --out ROOT/RUN: add the run to ROOT/index.json and ROOT/index.html (the index of published runs)',
    )
    .addOption(replaceRun())
    .action(async (files, flags) => (await import('./merge-command.js')).mergeCommand(files, flags));
  program
    .command('report')
    .description('re-render a saved report.json in other formats, without scanning again')
    .argument('<file>', 'a report written by scan or audit (report.json)')
    .addOption(
      listOption('--format <list>', 'formats (files go under --out; table and tools print)', ALL_FORMATS, ['html']),
    )
    .option('--out <dir>', "directory for the files (default: the report file's directory)")
    .addOption(rulesBaseUrl())
    .addOption(sarifUri())
    .option('--compare <old.json>', COMPARE_LATEST)
    .option('--index <root>', 'the run index that --compare latest reads (ROOT/index.json)')
    .action(async (file, flags) => (await import('./report-command.js')).reportCommand(file, flags));
}

const ALL_FORMATS = [...FILE_FORMATS, ...PRINT_FORMATS];

/** Each command's examples after its help (cli/examples.ts), the command named as the user ran it. */
function withExamples(cmd: CommandUnknownOpts, key: string): void {
  cmd.addHelpText('after', () => examplesText(key, invocation()));
  for (const sub of cmd.commands) withExamples(sub, key ? `${key} ${sub.name()}` : sub.name());
}

function program(): Command {
  const idemscan = new Command('idemscan')
    .description('Scan MCP servers and tell which tools are safe to retry')
    .version(TOOL_VERSION)
    // The error and commander's suggestion, then where the rest is: the whole help would push both off the screen.
    .showHelpAfterError(`see: ${invocation()} --help`)
    .exitOverride();
  scanning(idemscan);
  reading(idemscan);
  registerPublishing(idemscan);
  registerWhere(idemscan);
  registerAuth(idemscan);
  for (const cmd of idemscan.commands) cmd.showHelpAfterError(`see: ${invocation()} ${cmd.name()} --help`);
  withExamples(idemscan, '');
  // The one place -q is read for idemscan's own stderr lines (shell/say.ts): the command's own flag.
  idemscan.hook('preAction', (_program, command) => setQuiet(command.opts().quiet));
  return idemscan;
}

// Bad input of any kind, wherever it was found, is exit 2 with its message; anything else is a bug.
try {
  await program().parseAsync(process.argv);
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
