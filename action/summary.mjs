/* global process, URL, Buffer */
// Step 3 of action.yml (action/scan.sh): the job summary's lines under its headline, from the
// report idemscan wrote and the tail of what it printed on stderr: the tools the gate matched, or
// the error (src/render/gate-summary.ts, built into dist/ by install.sh). Arguments: the exit
// code, the JSON report, the stderr file. Prints nothing it cannot read: the headline stands alone.
import { open } from 'node:fs/promises';

const [code, reportFile, stderrFile] = process.argv.slice(2);
const root = new URL('../dist/', import.meta.url);
const { readReportFile } = await import(new URL('compare/read.js', root).href);
const { actionSummary } = await import(new URL('render/gate-summary.js', root).href);

/** The last 64 KiB of the stderr file: the error is its end. */
async function tail(file) {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, 64 * 1024);
      const { buffer } = await handle.read(Buffer.alloc(length), 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

// The bounded reader of saved reports (size, depth, schema): a report that is not there or not read is no report.
const report = await readReportFile(reportFile).then(
  (r) => r.report,
  () => undefined,
);
process.stdout.write(actionSummary({ code: Number(code), report, stderr: await tail(stderrFile) }));
