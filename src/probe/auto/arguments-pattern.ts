// A string for a `pattern`: read by hand a character at a time (no regular expression parses it), then
// checked with the pattern itself; what the reader does not know falls back to a few fixed candidates.
import v8 from 'node:v8';
import { ARGUMENT_BOUNDS, quote } from './arguments-common.js';

// A server's pattern runs on V8's backtracking engine; past a bound of backtracks V8 falls back to
// its linear engine, so `(a|a)*!` cannot hold the event loop (no timeout or signal could).
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

type Range = readonly [number, number];
interface CharSet {
  ranges: Range[];
  negated: boolean;
}
interface Atom {
  unit: CharSet | { alts: Atom[][] };
  min: number;
  max: number;
}

/** Tried in order when the pattern is beyond the reader, or its string fails the pattern. */
const CANDIDATES = ['probe', 'a', 'A', '0', '1', 'probe-1', 'probe_1', 'x', '_', '-', ''];
/** Picked first from a class that holds them; a negated class gets the first it does not hold. */
const PREFERRED = 'aA0_-.x Z9!';

const code = (c: string): number => c.charCodeAt(0);
const DIGITS: Range[] = [[48, 57]];
const WORD: Range[] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: Range[] = [[32, 32]];
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11 };
const QUANTIFIER_START = '*+?{';

class Reader {
  i = 0;
  constructor(readonly src: string) {}
  peek(at = 0): string | undefined {
    return this.src[this.i + at];
  }
}

/** `\d`, `\w`, `\s` and their negations, a control escape, or an escaped symbol; undefined for the rest. */
function escape(r: Reader): CharSet | undefined {
  const c = r.peek(1);
  if (c === undefined) return undefined;
  r.i += 2;
  const lower = c.toLowerCase();
  const named = lower === 'd' ? DIGITS : lower === 'w' ? WORD : lower === 's' ? SPACE : undefined;
  if (named) return { ranges: named, negated: c !== lower };
  const control = CONTROL[c];
  if (control !== undefined) return { ranges: [[control, control]], negated: false };
  if (/[\da-z]/i.test(c)) return undefined; // a backreference, \b, \u, \p...: beyond the reader
  return { ranges: [[code(c), code(c)]], negated: false };
}

function classItem(r: Reader): Range[] | undefined {
  if (r.peek() === '\\') {
    const set = escape(r);
    return set && !set.negated ? set.ranges : undefined;
  }
  const lo = code(r.src[r.i++]!);
  if (r.peek() !== '-' || r.peek(1) === ']' || r.peek(1) === undefined) return [[lo, lo]];
  r.i += 1;
  const end = classItem(r);
  const hi = end?.length === 1 && end[0]![0] === end[0]![1] ? end[0]![0] : undefined;
  return hi !== undefined && hi >= lo ? [[lo, hi]] : undefined;
}

function charClass(r: Reader): CharSet | undefined {
  r.i += 1;
  const negated = r.peek() === '^';
  if (negated) r.i += 1;
  const ranges: Range[] = [];
  while (r.peek() !== ']') {
    if (r.peek() === undefined) return undefined;
    const got = classItem(r);
    if (!got) return undefined;
    ranges.push(...got);
  }
  r.i += 1;
  return { ranges, negated };
}

function count(r: Reader): number | undefined {
  const start = r.i;
  while (r.peek() !== undefined && r.peek()! >= '0' && r.peek()! <= '9') r.i += 1;
  return r.i > start ? Number(r.src.slice(start, r.i)) : undefined;
}

function quantifier(r: Reader): { min: number; max: number } | undefined {
  const c = r.peek();
  if (c === '*' || c === '+' || c === '?') {
    r.i += 1;
    return { min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity };
  }
  if (c !== '{') return { min: 1, max: 1 };
  r.i += 1;
  const min = count(r);
  let max = min;
  if (r.peek() === ',') {
    r.i += 1;
    max = count(r) ?? Infinity;
  }
  if (min === undefined || max === undefined || r.peek() !== '}' || max < min) return undefined;
  r.i += 1;
  return { min, max };
}

/** `(`, `(?:` or a named group `(?<name>`; lookarounds are beyond the reader. */
function group(r: Reader): Atom['unit'] | undefined {
  if (r.src.startsWith('(?:', r.i)) r.i += 3;
  else if (r.src.startsWith('(?<', r.i) && r.peek(3) !== '=' && r.peek(3) !== '!') {
    const close = r.src.indexOf('>', r.i);
    if (close < 0) return undefined;
    r.i = close + 1;
  } else if (r.peek(1) === '?') return undefined;
  else r.i += 1;
  const alts = sequence(r);
  if (!alts || r.peek() !== ')') return undefined;
  r.i += 1;
  return { alts };
}

/** One atom and its quantifier; null for an anchor (zero width: the final check judges where it stands). */
function atom(r: Reader): Atom | null | undefined {
  const c = r.peek()!;
  if (c === '^' || c === '$') {
    r.i += 1;
    return null;
  }
  if (QUANTIFIER_START.includes(c)) return undefined;
  let unit: Atom['unit'] | undefined;
  if (c === '(') unit = group(r);
  else if (c === '[') unit = charClass(r);
  else if (c === '\\') unit = escape(r);
  else {
    r.i += 1;
    unit = { ranges: c === '.' ? [[97, 97]] : [[code(c), code(c)]], negated: false };
  }
  const q = unit && quantifier(r);
  if (!unit || !q) return undefined;
  if (r.peek() === '?') r.i += 1; // lazy: the same strings
  if (r.peek() !== undefined && QUANTIFIER_START.includes(r.peek()!)) return undefined;
  return { unit, ...q };
}

function sequence(r: Reader): Atom[][] | undefined {
  const alts: Atom[][] = [[]];
  while (r.peek() !== undefined && r.peek() !== ')') {
    if (r.peek() === '|') {
      r.i += 1;
      alts.push([]);
      continue;
    }
    const got = atom(r);
    if (got === undefined) return undefined;
    if (got) alts[alts.length - 1]!.push(got);
  }
  return alts;
}

function pick(set: CharSet): string | undefined {
  const holds = (c: number) => set.ranges.some(([lo, hi]) => c >= lo && c <= hi);
  for (const c of PREFERRED) if (holds(code(c)) !== set.negated) return c;
  if (set.negated || set.ranges.length === 0) return undefined;
  return String.fromCharCode(set.ranges[0]![0]);
}

/** The shortest string of the first alternative, or undefined when it would be longer than strings get. */
function unitText(unit: Atom['unit']): string | undefined {
  if ('ranges' in unit) return pick(unit);
  let out = '';
  for (const a of unit.alts[0]!) {
    const one = unitText(a.unit);
    if (one === undefined || out.length + one.length * a.min > ARGUMENT_BOUNDS.stringChars) return undefined;
    out += one.repeat(a.min);
  }
  return out;
}

/** Each atom at its least, then repeated where it may be until `min` characters. */
function build(atoms: Atom[], min: number): string | undefined {
  const texts = atoms.map((a) => unitText(a.unit));
  if (texts.some((t) => t === undefined)) return undefined;
  const counts = atoms.map((a) => a.min);
  const length = () => counts.reduce((n, k, i) => n + k * texts[i]!.length, 0);
  if (length() > ARGUMENT_BOUNDS.stringChars) return undefined;
  for (let i = 0; i < atoms.length && length() < min; i++) {
    const unit = texts[i]!.length;
    if (unit === 0) continue;
    counts[i] = Math.min(atoms[i]!.max, counts[i]! + Math.ceil((min - length()) / unit));
  }
  return counts.map((k, i) => texts[i]!.repeat(k)).join('');
}

export function compile(pattern: string): RegExp | string {
  if (pattern.length > ARGUMENT_BOUNDS.patternChars)
    return `pattern longer than ${ARGUMENT_BOUNDS.patternChars} characters`;
  try {
    return new RegExp(pattern);
  } catch {
    return `pattern ${quote(pattern)} is not a regular expression`;
  }
}

/** A string of `min`..`max` characters the pattern matches, or why there is none. */
export function patternValue(pattern: string, min: number, max: number): { value: string } | { why: string } {
  const re = compile(pattern);
  if (typeof re === 'string') return { why: re };
  const r = new Reader(pattern);
  const alts = sequence(r);
  const read = alts && r.i === pattern.length ? build(alts[0]!, min) : undefined;
  const fits = (s: string) => s.length >= min && s.length <= max && re.test(s);
  for (const s of read === undefined ? CANDIDATES : [read, ...CANDIDATES]) if (fits(s)) return { value: s };
  return { why: `pattern ${quote(pattern)} cannot be satisfied` };
}
