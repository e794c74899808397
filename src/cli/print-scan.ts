/**
 * What `scan` and `audit` print when the scan is done: the table (or audit's tool view) at the
 * terminal's width, the files written, and with `-q` only what went wrong.
 */
import { failureLines } from '../render/table.js';
import path from 'node:path';
import { reporter, REPORTERS } from '../render/index.js';
import { wholeReport, type ReportStream } from '../model/report-head.js';
import type { Shown } from '../model/shown.js';
import { joinShown, msg, rendered, show } from '../render/message.js';
import { retryAdvice, summaryCounts } from '../model/verdicts.js';
import { outputWidth } from '../render/width.js';
import { toolsCommandFor } from '../app/output.js';
import { tell } from './say.js';

/**
 * The table or tool view on stdout (stderr when the JSON report goes to stdout). With `-q` only
 * the servers that failed, on stderr: they are errors, the rest is not.
 */
export async function printResult(
  report: ReportStream,
  view: 'table' | 'tools',
  opts: { quiet?: boolean; jsonToStdout?: boolean; rulesBaseUrl?: string; reportFile?: string },
): Promise<void> {
  if (opts.quiet) {
    // failureLines escape what they quote (render/table.ts).
    for (const s of report.servers())
      if (s.status === 'failed') tell(msg`${show.name(s.name)} failed: ${rendered(failureLines(s).join('; '))}`);
    return;
  }
  const stream = opts.jsonToStdout ? process.stderr : process.stdout;
  const toolsCommand = opts.reportFile === undefined ? undefined : toolsCommandFor(opts.reportFile);
  const dim = stream.isTTY === true && !process.env.NO_COLOR;
  const options = { width: outputWidth(stream), rulesBaseUrl: opts.rulesBaseUrl, toolsCommand, dim };
  const r = await reporter(view);
  // The table reads the servers one at a time; the tool view (audit: one server) gets them in memory.
  if (r.write) r.write(report, (t) => stream.write(t), options);
  else stream.write(r.render(wholeReport(report), options));
  // Under the headline's figures, what a client's user should do about them (model/verdicts.ts).
  const advice = report.summary.serversOk > 0 ? retryAdvice(summaryCounts(report.summary)) : undefined;
  if (advice) stream.write(`${advice}.\n`);
}

/** The JSON report file the table's pointer names: `--json PATH`, else --out's report.json when written. */
export function reportFileOf(flags: { json?: string; out: string; format: readonly string[] }): string | undefined {
  if (flags.json && flags.json !== '-') return flags.json;
  return flags.format.includes('json') ? path.join(flags.out, REPORTERS.json!.fileName!) : undefined;
}

/** What each containment of `target.sandbox` means, in words (docs/SANDBOX.md); a mode not listed is shown by its id. */
const SANDBOX_WORDS: Record<string, string> = {
  bubblewrap: 'bubblewrap (no network, no home directories, read-only system)',
  netns: 'network namespace only (no network but loopback; files and HOME are not protected)',
  none: 'none (they ran with your rights, files and network included; --sandbox contains them)',
  container: 'the container engine (docker or podman: no network, no capabilities, read-only root)',
  'none-host-proc':
    "none, not even a /proc of their own (they could see this machine's processes and their environments; --sandbox contains them)",
};

/**
 * After a scan, the sandbox that ran, counted from the report (`servers[].target.sandbox`, stdio
 * servers only, by app/post-process.ts; `sandboxed`: the report's `options.sandbox`): `sandbox for 3 stdio servers: bubblewrap (...)`. As root, what that means:
 * without --sandbox the PID namespace is no sandbox; under it, the sandbox is all there is.
 */
export function sandboxLines(
  counts: ReadonlyMap<string, number>,
  sandboxed: boolean | undefined,
  asRoot: boolean,
): Shown[] {
  if (counts.size === 0) return [];
  const servers = (n: number) => `${n} stdio server${n === 1 ? '' : 's'}`;
  const words = (mode: string) => msg`${SANDBOX_WORDS[mode] ?? show.name(mode)}`;
  const [only] = counts.size === 1 ? [...counts] : [];
  const each = [...counts].map(([mode, n]) => msg`${words(mode)} for ${servers(n)}`);
  const lines = [
    only ? msg`sandbox for ${servers(only[1])}: ${words(only[0])}` : msg`sandbox: ${joinShown(each, '; ')}`,
  ];
  if (asRoot) {
    lines.push(
      sandboxed === true
        ? msg`running as root: the sandbox is the only protection between the servers and this machine`
        : msg`running as root without --sandbox: the PID namespace each server runs in is not a sandbox, and the servers could change anything on this machine`,
    );
  }
  return lines;
}
