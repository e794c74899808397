/** Pasteable examples after each command's --help: plain strings, so --help loads nothing more. */

import { CENSUS_EXAMPLES } from '../census/cli/register.js';

/** [what it does, the command after `idemscan`]. */
type Example = readonly [string, string];

export const EXAMPLES: Readonly<Record<string, readonly Example[]>> = {
  ...CENSUS_EXAMPLES,
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
    [
      'no plan: every tool twice, each on a fresh sandboxed server, hints checked against what it did',
      'probe --auto --sandbox --fail-on overstates -- node build/index.js',
    ],
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
