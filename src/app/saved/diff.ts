/** `diff`: two saved reports read (each checked as untrusted input) and compared. Never prints. */
import { diffReports } from '../../compare/diff.js';
import { readReportFile } from '../../compare/read.js';
import type { DiffDocument } from '../../model/diff.js';

export async function diffFiles(oldFile: string, newFile: string): Promise<DiffDocument> {
  const [a, b] = [await readReportFile(oldFile), await readReportFile(newFile)];
  return diffReports(a, b);
}
