/** The HTML page's answer per server; every report value goes through escape.ts. */
import type { Report } from '../../model/schema.js';
import { advicePhrases, answerMeta, failedAnswer, metaText, type AdviceWords } from '../advice.js';
import { PAGE_ANSWERS } from '../markdown-answers.js';
import { name } from './escape.js';

const WORDS: AdviceWords = {
  name: (t) => name(t, 160),
  code: (t) => `<code>${name(t, 200)}</code>`,
  names: 5,
};

export function answersSection(report: Report): string {
  if (report.servers.length === 0) return '';
  const items = report.servers.slice(0, PAGE_ANSWERS).flatMap((s) => {
    const phrases = s.status === 'ok' ? advicePhrases(s, WORDS) : [failedAnswer(s)];
    if (phrases.length === 0) return [];
    const meta = metaText(answerMeta(s), WORDS);
    return [
      `<li><strong>${name(s.name, 120)}</strong>${meta ? `<span class="muted">${meta}</span>` : ''}: ${phrases.join('; ')}.</li>`,
    ];
  });
  const rest = report.servers.length - PAGE_ANSWERS;
  if (rest > 0) items.push(`<li>and ${rest.toLocaleString('en-US')} more servers: see the Servers table.</li>`);
  return (
    `<section id="answers" class="card panel" aria-labelledby="answers-h"><h2 id="answers-h">What a client may do</h2>` +
    `<ul class="answers">${items.join('')}</ul></section>`
  );
}
