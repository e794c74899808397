/** Measured as string-width does, which cli-table3 uses, so a width chosen here is the width drawn. */
import stringWidth from 'string-width';

/** Printable ASCII, one column a character: the common case, without string-width's emoji pass. */
const ASCII = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

/** string-width counts some sequences narrower than their sum, so a cut summed from these never measures wider. */
function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  return cp >= 0x20 && cp < 0x7f ? 1 : stringWidth(ch);
}

/** The longest head of `text` that fits `width` columns (whole code points). */
function head(text: string, width: number): string {
  let w = 0;
  let end = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width) break;
    w += cw;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** The longest tail of `text` that fits `width` columns (whole code points). */
function tail(text: string, width: number): string {
  const chars = Array.from(text);
  let w = 0;
  let start = chars.length;
  while (start > 0) {
    const cw = charWidth(chars[start - 1]!);
    if (w + cw > width) break;
    w += cw;
    start -= 1;
  }
  return chars.slice(start).join('');
}

/** `text` cut at the end to `width` columns, with `…` where it was cut. */
export function cutEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return width <= 0 ? '' : `${head(text, width - 1)}…`;
}

/** Server names often differ at the end (`-staging`, `-v2`), so both ends are kept. */
export function cutMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return cutEnd(text, width);
  const back = Math.floor((width - 1) * 0.4);
  const front = head(text, width - 1 - back);
  return `${front}…${tail(text, width - 1 - displayWidth(front))}`;
}

/** Cuts that collide get a numbered suffix (`…~2`) skipping taken texts, so two rows never print the same. */
export function distinctCuts(texts: readonly string[], width: number): string[] {
  const out = texts.map((t) => cutMiddle(t, width));
  const taken = new Map<string, number>(); // shown text -> how many entries show it
  for (const s of out) taken.set(s, (taken.get(s) ?? 0) + 1);
  const used = new Set<string>();
  // Entries that show a text no other entry shows keep it; the rest are renumbered in order.
  for (const s of out) if (taken.get(s) === 1) used.add(s);
  const next = new Map<string, number>();
  return out.map((s, i) => {
    if (taken.get(s) === 1) return s;
    let n = next.get(s) ?? 1;
    let candidate: string;
    do {
      const suffix = `~${n++}`;
      candidate = `${cutEnd(texts[i]!, Math.max(1, width - suffix.length))}${suffix}`;
    } while (used.has(candidate));
    next.set(s, n);
    used.add(candidate);
    return candidate;
  });
}

/** Pads with spaces to `width` columns (left-aligned, or right-aligned for numbers). */
export function pad(text: string, width: number, right = false): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

/** No bound for a pipe or file: a log or `grep` wants whole names. */
export function outputWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns;
  return Infinity;
}

/** A word wider than a line is broken into pieces, not cut: nothing is lost and no line is wider. */
export function wrapTo(text: string, width: number, first = '', rest = first): string[] {
  if (!Number.isFinite(width)) return [`${first}${text}`];
  const lines: string[] = [];
  let line = '';
  const lead = () => (lines.length === 0 ? first : rest);
  const room = () => Math.max(1, width - displayWidth(lead()));
  for (let word of text.split(' ')) {
    if (line && displayWidth(line) + 1 + displayWidth(word) > room()) {
      lines.push(lead() + line);
      line = '';
    }
    while (!line && displayWidth(word) > room()) {
      const piece = head(word, room()) || Array.from(word)[0]!;
      lines.push(lead() + piece);
      word = word.slice(piece.length);
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(lead() + line);
  return lines;
}

/** Wrapped lines a piece of server text may take: a long message must not flood the terminal. */
export const WRAP_LINES = 6;

/** `wrapTo`, at most `maxLines` lines, the last ending in `…` when more were left out. */
export function wrapBounded(text: string, width: number, first = '', rest = first, maxLines = WRAP_LINES): string[] {
  const lines = wrapTo(text, width, first, rest);
  if (lines.length <= maxLines) return lines;
  const last = lines[maxLines - 1]!;
  // At least the lead and one character, so the ellipsis stays under the hanging indent.
  return [...lines.slice(0, maxLines - 1), cutEnd(`${last}…`, Math.max(width, displayWidth(rest) + 2))];
}

/** Broken only at unquoted spaces with ` \`, so pasted lines still run; a word is never cut. */
export function commandLines(command: string, width: number, first = '  '): string[] {
  const words = shellWords(command);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const lead = lines.length === 0 ? first : `${first}    `;
    if (line && displayWidth(`${lead}${line} ${word} \\`) > width) {
      lines.push(`${lead}${line} \\`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(`${lines.length === 0 ? first : `${first}    `}${line}`);
  return lines;
}

/** As `shellWord` quotes them: quoted spaces do not split, a backslash outside takes the next character. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  let escaped = false;
  for (const ch of command) {
    if (escaped) {
      word += ch;
      escaped = false;
    } else if (ch === ' ' && !quoted) {
      if (word) words.push(word);
      word = '';
    } else {
      if (ch === "'") quoted = !quoted;
      else if (ch === '\\' && !quoted) escaped = true;
      word += ch;
    }
  }
  if (word) words.push(word);
  return words;
}
