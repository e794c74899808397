/** Folded: the first ANSWER_SERVERS kept, the rest counted, so a spooled scan is read once. */
import type { ServerFold } from '../model/report-head.js';
import type { ServerReport } from '../model/schema.js';
import { advicePhrases, answerMeta, failedAnswer, metaText, type AdviceWords } from './advice.js';
import { cellText } from './columns.js';
import { cutMiddle, wrapTo } from './width.js';
import { PAGE_ANSWERS } from './markdown-answers.js';

/** Servers answered on the terminal; the Markdown and HTML reports answer `PAGE_ANSWERS`, the JSON every one. */
const ANSWER_SERVERS = 30;
/** Names a group shows on the terminal before "+N more". */
const NAMES = 3;
const NAME_WIDTH = 40;

const WORDS: AdviceWords = {
  name: (t) => cutMiddle(cellText(t, 256), NAME_WIDTH),
  code: (t) => cutMiddle(cellText(t, 256), NAME_WIDTH),
  names: NAMES,
};

/** One server's answer, its text escaped already: the head (name, version, clients) and the phrases. */
export interface TerminalAnswer {
  head: string;
  answer: string;
}

export interface Answers {
  shown: TerminalAnswer[];
  /** Servers answered in all (shown or not). */
  servers: number;
}

export function terminalAnswer(s: ServerReport): TerminalAnswer | undefined {
  const phrases = s.status === 'ok' ? advicePhrases(s, WORDS) : [failedAnswer(s)];
  if (phrases.length === 0) return undefined; // a scanned server without `advice` (made by a library caller)
  const meta = metaText(answerMeta(s), WORDS);
  return { head: `${WORDS.name(s.name)}${meta}`, answer: phrases.join('; ') };
}

export function answersFold(): ServerFold<Answers> {
  const shown: TerminalAnswer[] = [];
  let servers = 0;
  return {
    add(s) {
      if (servers >= ANSWER_SERVERS) {
        servers += 1;
        return;
      }
      const a = terminalAnswer(s);
      if (!a) return;
      servers += 1;
      shown.push(a);
    },
    result: () => ({ shown, servers }),
  };
}

/** The block's lines, every one within `width` (names are cut to 40 columns, so no word is wider). */
export function answerLines(answers: Answers, width: number): string[] {
  if (answers.servers === 0) return [];
  const lines = wrapTo('What a client may do with each server:', width);
  for (const a of answers.shown) lines.push(...wrapTo(`${a.head}: ${a.answer}`, width, '  ', '      '));
  const rest = answers.servers - answers.shown.length;
  if (rest > 0)
    lines.push(
      ...wrapTo(
        `+${rest.toLocaleString('en-US')} more servers: the Markdown and HTML reports answer the first ${PAGE_ANSWERS}, the JSON report (servers[].advice) every one`,
        width,
        '  ',
        '    ',
      ),
    );
  return lines;
}
