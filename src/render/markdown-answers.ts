/** The Markdown report's answer per server; every report value goes through mdText. */
import type { Report } from '../model/schema.js';
import { advicePhrases, answerMeta, failedAnswer, metaText, type AdviceWords } from './advice.js';
import { mdText } from './markdown-text.js';

/** Servers answered at the top of the Markdown and HTML reports; the rest are in their tables. */
export const PAGE_ANSWERS = 200;

const WORDS: AdviceWords = {
  name: (t) => mdText(t, 120),
  // Not a code span: mdText's backslashes would show inside one.
  code: (t) => mdText(t, 200),
  names: 5,
};

export function answersMarkdown(report: Report): string[] {
  if (report.servers.length === 0) return [];
  const lines = ['## What a client may do', ''];
  for (const s of report.servers.slice(0, PAGE_ANSWERS)) {
    const phrases = s.status === 'ok' ? advicePhrases(s, WORDS) : [failedAnswer(s)];
    if (phrases.length === 0) continue;
    const meta = metaText(answerMeta(s), WORDS);
    lines.push(`- **${mdText(s.name, 80)}**${meta}: ${phrases.join('; ')}.`);
  }
  const rest = report.servers.length - PAGE_ANSWERS;
  if (rest > 0) lines.push(`- and ${rest.toLocaleString('en-US')} more servers: see the Servers table.`);
  return lines;
}
