/** The flags of every command, declared once; each command's flag type is what commander infers from it. */
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { DEFAULTS } from '../model/limits.js';
import { DEFAULT_LOCK_FILE, DIFF_FORMATS, FILE_FORMATS, PRINT_FORMATS } from '../model/formats.js';
import {
  cacheDir,
  quiet,
  timeout,
  intOption,
  listOption,
  repeatable,
  wordParser,
  type FlagsOf,
} from '../shell/options.js';

/** scan, audit and lock print the table (or tools) anyway: --format names the files they write. */
const printsOnly = (word: string) =>
  (PRINT_FORMATS as readonly string[]).includes(word)
    ? `prints only; --format names files to write (${FILE_FORMATS.join(', ')}), and the ${word === 'tools' ? 'tools view' : 'table'} prints unless -q`
    : undefined;

export const fileFormats = () =>
  listOption('--format <list>', 'formats to write under --out', FILE_FORMATS, ['json'], printsOnly);
/** `merge --out`: a run there already (its report.json) is replaced only when asked. */
export const replaceRun = () =>
  new Option(
    '--replace',
    'replace the run --out holds already (a report.json there); without it merge refuses (exit 2)',
  );
const allowSdist = () =>
  new Option(
    '--allow-sdist',
    'PyPI: also build packages that ship no wheel (runs their build code at install time, unsandboxed)',
  );
/** Target files and project configs are others' lists: `${VAR}` in them reads only these variables. */
const allowEnv = () =>
  repeatable(
    '--allow-env <name>',
    'an environment variable that target files and project-scope configs may expand as ${NAME} (none by default)',
    { commas: true },
  );
export const rulesBaseUrl = () =>
  new Option('--rules-base-url <url>', 'link each rule to <url>/<rule-id>.md in SARIF (helpUri) and Markdown');
export const sarifUri = () =>
  repeatable(
    '--sarif-uri <name=path>',
    'point SARIF results about server NAME at PATH, its source file relative to the repository root (a bare PATH: every other server, as in an audit)',
  );
const trust = () =>
  repeatable(
    '--trust <name>',
    'a server whose hints you trust, by its list key or command file name (audit without --name: also the name the server gives itself)',
    { commas: true },
  );
const sandbox = () =>
  new Option(
    '--sandbox',
    'run stdio servers under bubblewrap: no network, no home directories, read-only system (network namespace only, without bwrap; docs/SANDBOX.md)',
  );
const writable = () =>
  repeatable(
    '--writable <path>',
    'with --sandbox: bind this existing directory or file read-write into the sandbox of every server of the run (a test backend; never HOME, a parent of it or a hidden root; docs/SANDBOX.md)',
  );
const concurrency = (what: string) => intOption('--concurrency <n>', what, DEFAULTS.concurrency);
const probeTimeout = () =>
  intOption(
    '--probe-timeout <ms>',
    'how long server/discover may stay silent before trying initialize',
    DEFAULTS.probeTimeoutMs,
  );

const profile = () =>
  repeatable(
    '--profile <name>',
    'check every tool against a profile: openai-apps, anthropic-directory or a JSON file',
    { commas: true },
  );

/** The report files of the commands that scan: --json, --out, --format. */
const reportOutputs = <O extends OptionValues>(cmd: Command<[], O>) =>
  cmd
    .option('--json <path>', 'also write the JSON report to PATH (- for stdout)')
    .option('--out <dir>', 'directory for report files', 'output')
    .addOption(fileFormats());

/** How many servers at once: not audit's or probe's, which scan one. */
const pools = <O extends OptionValues>(cmd: Command<[], O>) =>
  cmd
    .addOption(concurrency('stdio servers started at once'))
    .addOption(
      intOption(
        '--http-concurrency <n>',
        'HTTP servers scanned at once (their own pool, beside --concurrency)',
        DEFAULTS.httpConcurrency,
      ),
    );

/** The options of scan, audit and lock after the outputs (and scan's and lock's pools). */
const scanOptions = <O extends OptionValues>(cmd: Command<[], O>) =>
  cmd
    .addOption(timeout())
    .addOption(probeTimeout())
    .addOption(intOption('--max-pages <n>', 'tools/list pages read per server at most', DEFAULTS.maxPages))
    .addOption(trust())
    .option(
      '--fail-on <list>',
      'exit 1 when anything matches: a severity (error, warning, info), rule ids, verdicts, drift, profile or a profile id, comma-separated',
    )
    .addOption(profile())
    .option('--baseline <lock>', 'compare with a lock file (idemscan lock): report.drift, and --fail-on drift')
    .option(
      '--suppress <file>',
      'accepted findings, each with its reason (default: .idemscan-suppress.json when present): kept in the report, dismissed in SARIF, not counted by --fail-on',
    )
    .addOption(rulesBaseUrl())
    .addOption(sarifUri())
    .addOption(sandbox())
    .addOption(writable())
    .option('--no-install', 'do not install missing pinned packages (npm, PyPI, .mcpb, OCI)')
    .addOption(cacheDir())
    .addOption(allowSdist())
    .addOption(quiet('no progress or table on the terminal'));

/** The one server of audit and probe: its headers, environment, transport and name. */
const serverOptions = <O extends OptionValues>(cmd: Command<[], O>, name: string) =>
  cmd
    .addOption(repeatable('--header <header>', 'HTTP header "Name: value"'))
    .addOption(repeatable('--env <pair>', 'environment variable NAME=value for a stdio server'))
    .option('--sse', 'the URL is an HTTP+SSE (2024-11-05) endpoint')
    .option('--name <name>', `the server name in the report (default: ${name})`);

/** The OAuth flags (docs/OAUTH.md) of scan, audit and login. */
const oauthOptions = <O extends OptionValues>(cmd: Command<[], O>) =>
  cmd
    .option(
      '--oauth',
      'sign in (browser, loopback redirect) to HTTP servers that need OAuth; tokens are stored for later scans',
    )
    .option(
      '--stored-auth-only',
      'for CI: use stored OAuth tokens (refreshing them), never sign in; a server that needs a sign-in fails with kind auth',
    )
    .option(
      '--client-id <id>',
      "a pre-registered OAuth client id, used only for the server you name (audit's or login's URL; scan: --client-origin)",
    )
    .option(
      '--client-secret-env <VAR>',
      "the environment variable holding that client's secret (never the secret itself): the client-credentials grant, with --oauth or login only",
    )
    .option(
      '--client-metadata-url <url>',
      "an https URL where you host idemscan's Client ID Metadata Document, for servers that accept CIMD",
    )
    .addOption(
      intOption(
        '--oauth-timeout <ms>',
        'how long a sign-in may take, the person at the browser included',
        DEFAULTS.signInTimeoutMs,
      ),
    );

export const scanFlags = (cmd: Command) =>
  oauthOptions(scanOptions(pools(reportOutputs(cmd))))
    .option('--shard <i/n>', 'scan only shard I of N (1-based; by a hash of each server name), e.g. 2/4')
    .option('--discover', "also scan the servers of the MCP clients' user configs found here (see `idemscan where`)")
    .option(
      '--project-configs',
      "with --discover, also scan the project-scope configs of this folder (.vscode/, .cursor/, .mcp.json, ...) and Claude Code's projects entries: a cloned repository's servers",
    )
    .option(
      '--resume',
      "read back the servers an interrupted scan kept in <out>/scan.spool.ndjson (a shard's: scan.spool.shard-I-of-N.ndjson) and scan only the rest",
    )
    .addOption(allowEnv())
    .addOption(
      repeatable(
        '--client-origin <origin>',
        'the origin (https://host[:port]) of the servers --client-id and --client-secret-env are for; no other server gets them',
        { commas: true },
      ),
    );

export const auditFlags = (cmd: Command) =>
  serverOptions(
    oauthOptions(scanOptions(reportOutputs(cmd)))
      .option(
        '--tools <file>',
        'classify a saved tools/list result ({"tools": [...]}, a bare array, or one per line), or a report.json idemscan wrote, without starting or contacting anything',
      )
      .option('--server <name>', 'with --tools REPORT: the server of the report to audit, when it has several')
      .option(
        '--save-tools <file>',
        "write the tools list the server answered (with serverInfo, capabilities and protocol) to FILE, which --tools and the Action's tools: input read back",
      ),
    "the URL's host, or the command's file name",
  );

export const lockFlags = (cmd: Command) =>
  scanOptions(pools(reportOutputs(cmd)))
    .option('--lock <path>', `the lock file to write (default: ${DEFAULT_LOCK_FILE})`)
    .addOption(allowEnv());

export const probeFlags = (cmd: Command) =>
  serverOptions(
    reportOutputs(
      cmd.option(
        '--plan <file>',
        'JSON: the tools to call, their arguments and observers (required without --auto; nothing outside it is called)',
      ),
    )
      .option(
        '--auto',
        'with --sandbox: also call every tool the plan leaves out, twice, each on a fresh server, with arguments made from its schema, observed through the files the sandbox lets it write (docs/PROBE.md)',
      )
      .option(
        '--fail-on <list>',
        'exit 1 when a tool has one of these outcomes: repeated-effect, reissue-refused, inconclusive, failed, or overstates (hints that claim more than it was seen to do; comma-separated)',
      )
      .addOption(timeout('bound on connecting and listing, then on each call'))
      .addOption(probeTimeout())
      .addOption(trust())
      .addOption(profile()),
    "the server's own name",
  )
    .addOption(sandbox())
    .addOption(writable())
    .addOption(cacheDir())
    .addOption(quiet('no tool view; the line saying what will be called is printed anyway'));

export const loginFlags = (cmd: Command) =>
  oauthOptions(cmd)
    .addOption(
      repeatable('--scope <scope>', 'a scope to request instead of the ones the server publishes', { commas: true }),
    )
    .addOption(cacheDir());

export const installFlags = (cmd: Command) =>
  cmd.addOption(concurrency('installs at once')).addOption(cacheDir()).addOption(allowSdist()).addOption(allowEnv());

export const diffFlags = (cmd: Command) =>
  cmd
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
    .option('--schema', 'print the JSON Schema of --format json and exit');

export type DiffFlags = FlagsOf<typeof diffFlags>;

type Common<A, B> = Pick<A, keyof A & keyof B>;
type Scan = FlagsOf<typeof scanFlags>;
export type AuditFlags = FlagsOf<typeof auditFlags>;
type Lock = FlagsOf<typeof lockFlags>;
export type ProbeFlags = FlagsOf<typeof probeFlags>;
export type InstallFlags = FlagsOf<typeof installFlags>;

/**
 * What the body of scan, audit and lock reads: the flags all three declare, as declared, and the
 * others where the command declares them.
 */
export type ScanFlags = Common<Scan, Common<AuditFlags, Lock>> & Partial<Scan & AuditFlags & Lock>;
