// docs/examples/library/render.ts: render a saved report as HTML, and compare it with an earlier one.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diffReports, readReportFile, renderDiff, reporter } from 'idemscan';

const [newFile = 'output/report.json', oldFile] = process.argv.slice(2);
// Checks schemaVersion and the schema, as `idemscan report` does; a ReportFileError names the field.
const latest = await readReportFile(newFile);
await writeFile(path.join(path.dirname(newFile), 'report.html'), (await reporter('html')).render(latest.report));

if (oldFile) {
  const diff = diffReports(await readReportFile(oldFile), latest);
  process.stdout.write(renderDiff(diff, 'text'));
  if (diff.changes.some((c) => c.direction === 'worse')) process.exitCode = 1;
}
