// Bounded regexes and `runEnd`: an unbounded quantifier overflows V8's stack on megabytes, and one JWT
// regex backtracks through every `eyJ` of a run (minutes for 300 KB).

export const REDACTED = '[REDACTED]';

interface Shape {
  start: RegExp;
  /** Sticky, bounded. */
  rest?: RegExp;
  pad?: RegExp;
  /** 0: not one. */
  within?: (run: string) => number;
}

/** Both the whole shape and the start of a cut token are built from it. */
const UNDERSCORE_PREFIXES = [
  'ghp',
  'gho',
  'ghu',
  'ghs',
  'ghr',
  'github_pat',
  'glpat',
  'xox[abposr]',
  'shpat',
  'shpss',
  'ntn',
  'secret',
  'lin_api',
  'sntrys',
];

const WORD_DASH = /[\w-]{1,4096}/y;
const SHAPES: Shape[] = [
  { start: /\b(?:sk|pk|rk)[-_](?:live|test|proj|ant)?[-_]?[\w-]{8}/g, rest: WORD_DASH },
  { start: new RegExp(`\\b(?:${UNDERSCORE_PREFIXES.join('|')})_[\\w-]{8}`, 'g'), rest: WORD_DASH },
  { start: /\bxox[abposr]-[A-Za-z0-9-]{8}/g, rest: /[A-Z0-9-]{1,4096}/iy },
  { start: /\bAKIA[0-9A-Z]{16}\b/g },
  { start: /\bBearer\s{1,64}[\w.~+/-]{8}/gi, rest: /[\w.~+/-]{1,4096}/y, pad: /={1,4096}/y },
  { start: /\beyJ/g, rest: /[\w.-]{1,4096}/y, within: jwtLength },
];

/** "sk-" and 8 more. */
const SHORTEST = 11;

const TOKEN_START = new RegExp(
  `\\b(?:sk[-_]|pk[-_]|rk[-_]|${UNDERSCORE_PREFIXES.map((p) => `${p}_`).join('|')}|xox[abposr]-|AKIA|eyJ)`,
);

export function blankTokens(text: string): string {
  if (text.length < SHORTEST) return text;
  let out = text;
  for (const shape of SHAPES) out = blank(out, shape);
  return out;
}

function blank(text: string, shape: Shape): string {
  const { start } = shape;
  let out = '';
  let last = 0;
  start.lastIndex = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    let end = m.index + m[0].length;
    if (shape.rest) end = runEnd(text, end, shape.rest);
    if (shape.pad) end = runEnd(text, end, shape.pad);
    start.lastIndex = end;
    const length = shape.within ? shape.within(text.slice(m.index, end)) : end - m.index;
    if (length === 0) continue;
    out += text.slice(last, m.index) + REDACTED;
    last = m.index + length;
  }
  return last === 0 ? text : out + text.slice(last);
}

function runEnd(text: string, from: number, chars: RegExp): number {
  let at = from;
  for (;;) {
    chars.lastIndex = at;
    if (!chars.test(text)) return at;
    at = chars.lastIndex;
  }
}

/** `eyJ` and 8+ characters, dot, 8+, dot, 8+. */
function jwtLength(run: string): number {
  const first = run.indexOf('.');
  const second = first < 0 ? -1 : run.indexOf('.', first + 1);
  if (first < 3 + 8 || second - first - 1 < 8) return 0;
  const third = run.indexOf('.', second + 1);
  const end = third < 0 ? run.length : third;
  return end - second - 1 >= 8 ? end : 0;
}

/** A token cut short is too short for the shapes but still a secret's prefix. */
export function tokenAtEnd(text: string): number {
  let run = text.length;
  while (run > 0 && isTokenChar(text.charCodeAt(run - 1))) run--;
  if (run === text.length) return 0;
  const start = TOKEN_START.exec(text.slice(run));
  if (start) return text.length - run - start.index;
  return /bearer$/i.test(text.slice(Math.max(0, run - 16), run).trimEnd()) ? text.length - run : 0;
}

/** `[\w.~+/=-]`. */
function isTokenChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 46 ||
    c === 126 ||
    c === 43 ||
    c === 47 ||
    c === 61 ||
    c === 45
  );
}
