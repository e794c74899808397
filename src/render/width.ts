/**
 * Columns on a terminal. Text here has been through `safeText` first (no controls, joiners or
 * variation selectors left), so each code point is one glyph: zero columns for a combining mark,
 * two for East Asian wide and fullwidth characters and emoji, one for everything else.
 */

const COMBINING = /^[\p{Mn}\p{Me}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

/** East Asian Wide (W) and Fullwidth (F) blocks (EastAsianWidth.txt, the large ranges). */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x18aff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x3fffd],
];

function isWide(cp: number): boolean {
  if (cp < 0x1100) return false;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** Columns one code point takes. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x300) return 1; // ASCII and Latin: the common case, no regex
  if (COMBINING.test(ch)) return 0;
  return isWide(cp) || EMOJI.test(ch) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
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

/**
 * `text` cut in the middle to `width` columns (`github-mcp…-enterprise`): server names often
 * differ at the end (`-staging`, `-v2`), so both ends are kept.
 */
export function cutMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return cutEnd(text, width);
  const back = Math.floor((width - 1) * 0.4);
  const front = head(text, width - 1 - back);
  return `${front}…${tail(text, width - 1 - displayWidth(front))}`;
}

/**
 * Each text cut to `width` columns, every result different from every other, so two entries never
 * print as the same row. A cut that meets another entry gets a numbered suffix (`…~2`) instead of
 * its tail, and the numbers skip any text already taken, so uniqueness holds by construction.
 * Texts that are equal already (two servers of one name) are numbered too.
 */
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

/**
 * How wide the table may be: `COLUMNS` when set (as `ls` and `git` honour it), the terminal's width
 * on a TTY, and no bound for a pipe or file: a log or `grep` wants whole names, not cut ones.
 */
export function outputWidth(
  stream: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  if (stream.isTTY && stream.columns && stream.columns > 0) return stream.columns;
  return Infinity;
}
