/**
 * Two or three pasteable examples per command, shown after its --help. Plain strings: --help
 * loads nothing more for them (test/integration/startup-imports.test.ts), and the command is the
 * one the user ran (model/invocation.ts), computed only when a help is shown.
 * test/integration/help-examples.test.ts checks that every flag an example uses is one its command has.
 */

/** [what it does, the command after `idemscan`]. */
type Example = readonly [string, string];

export const EXAMPLES: Readonly<Record<string, readonly Example[]>> = {
  '': [
    ['which servers your MCP clients list here, and what a client may retry', 'scan --discover'],
    ['one server of yours, every tool with its verdict', 'audit -- node build/index.js'],
    ['the examples of one command', 'scan --help'],
  ],
  scan: [
    ['the servers your MCP clients list here (see: where)', 'scan --discover'],
    ['a config file, with an HTML report beside the JSON', 'scan mcp.json --format json,html --out report'],
    ['in CI: exit 1 on an error finding or an unprotected tool', 'scan mcp.json --fail-on error,unprotected -q'],
  ],
  audit: [
    ['a stdio server, started as a command after --', 'audit -- node build/index.js'],
    ['an HTTP server (Streamable HTTP; --sse for HTTP+SSE)', 'audit http://localhost:3000/mcp'],
    ['a saved tools/list result, no server started', 'audit --tools tools.json'],
  ],
  probe: [
    [
      'call the planned tools twice and count the effects (real effects: a test backend)',
      'probe --plan plan.json -- node build/index.js',
    ],
    [
      'an HTTP server, exit 1 when a retry repeats an effect',
      'probe --plan plan.json --fail-on repeated-effect http://localhost:3000/mcp',
    ],
  ],
  'probe-census': [
    ['the plan library under probes/, each server sandboxed, the table in output/ecosystem/behaviour', 'probe-census'],
    ['two of its servers, the table elsewhere', 'probe-census probes --only memory,filesystem --out behaviour'],
  ],
  lock: [
    ['pin every tool of a list in idemscan.lock.json', 'lock mcp.json'],
    ['later: exit 1 when a tool changed since the lock', 'scan mcp.json --baseline idemscan.lock.json --fail-on drift'],
  ],
  install: [
    ['install the pinned packages of a list ahead of a scan', 'install mcp.json'],
    ['into another cache, two at a time', 'install mcp.json --cache-dir .cache/idemscan --concurrency 2'],
  ],
  schema: [
    ["the report's JSON Schema", 'schema > report.schema.json'],
    ["the lock file's", 'schema --lock > lock.schema.json'],
  ],
  diff: [
    ['what changed between two reports', 'diff old/report.json output/report.json'],
    [
      'as Markdown, exit 1 when anything got worse',
      'diff old/report.json output/report.json --format md --fail-on regression',
    ],
  ],
  merge: [
    ['the reports of scan --shard 1/2 and 2/2 as one', 'merge shard-1/report.json shard-2/report.json --out merged'],
    [
      'a run of a census, added to its index',
      'merge shard-1/report.json shard-2/report.json --out runs/2026-12-01 --index runs',
    ],
  ],
  report: [
    ['the HTML page of a saved report, beside it', 'report output/report.json'],
    ['every tool with its verdict and evidence, on the terminal', 'report output/report.json --format tools'],
    ['Markdown and SARIF into another folder', 'report output/report.json --format md,sarif --out pages'],
  ],
  index: [
    ['rebuild index.json and index.html of the runs under a folder', 'index runs'],
    ['and the census block of the newest run in a README', 'index runs --readme README.md'],
  ],
  stats: [
    ['the census statistics of a run, into its folder', 'stats runs/2026-12-02/report.json'],
    ['the 50 most downloaded beside all, elsewhere', 'stats runs/2026-12-02/report.json --top 50 --out stats'],
  ],
  registry: [['the MCP Registry as a target file', 'registry pull --out registry.json']],
  'registry pull': [
    ['every latest active server of the MCP Registry as a target file', 'registry pull --out registry.json'],
    ['then scan it', 'scan registry.json --format json,csv'],
  ],
  targets: [['re-pin a list to the latest versions', 'targets refresh mcp.json --dry-run']],
  'targets refresh': [
    ['what would change, without writing', 'targets refresh mcp.json --dry-run'],
    ['re-pin every npm and registry entry, writing the file back', 'targets refresh mcp.json'],
  ],
  where: [
    ['the MCP client files found here, with their servers and skipped entries', 'where'],
    ['as JSON', 'where --json'],
  ],
  login: [
    ['sign in once with a browser; scans then use the stored tokens', 'login https://mcp.example.com/mcp'],
    ['with a pre-registered client', 'login https://mcp.example.com/mcp --client-id my-client'],
  ],
  logout: [
    ["remove one server's tokens", 'logout https://mcp.example.com/mcp'],
    ['remove them all', 'logout'],
  ],
};

/** The Examples section of a command's help, or '' when it has none. */
export function examplesText(command: string, invocation: string): string {
  const examples = EXAMPLES[command];
  if (!examples) return '';
  return `\nExamples:\n${examples.map(([what, how]) => `  # ${what}\n  ${invocation} ${how}\n`).join('')}`;
}
