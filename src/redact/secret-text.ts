// Linear in the text, which a server chooses (a 300 KB `eyJ-eyJ-...`). Redaction: docs/INTERNALS.md.
import { CUT_MARK } from '../model/bounds.js';
import { REDACTED } from './token-shapes.js';
import { blankTokens, tokenAtEnd } from './token-shapes.js';

const MIN_SECRET = 4;

/** `AUTH_REQUIRED=true`: blanking these would blank every "Returns true if..." in the report. */
const NOT_SECRET = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none', 'enabled', 'disabled']);

/** Text ending with its head was probably cut in it; `production` is not (`deploy_to_prod` is a tool name). */
function distinctive(value: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Z0-9]/i].filter((re) => re.test(value)).length;
  return value.length >= 20 || classes >= 3 || (value.length >= 12 && /\d/.test(value) && /[a-z]/i.test(value));
}

export class SecretText {
  /** Longest first, so a secret that contains another is blanked whole. */
  private readonly secrets: Affixes[];
  /** The few secrets worth checking beside a cut. */
  private readonly byPiece = new Map<string, Affixes[]>();

  constructor(values: Iterable<string>) {
    const unique = [...new Set(values)]
      .filter((v) => v.length >= MIN_SECRET && !NOT_SECRET.has(v.toLowerCase()))
      .sort((a, b) => b.length - a.length);
    this.secrets = unique.map((s) => new Affixes(s));
    for (const secret of this.secrets) {
      const { value } = secret;
      for (const piece of new Set(
        Array.from({ length: value.length - MIN_SECRET + 1 }, (_, i) => value.slice(i, i + MIN_SECRET)),
      )) {
        const list = this.byPiece.get(piece);
        if (list) list.push(secret);
        else this.byPiece.set(piece, [secret]);
      }
    }
  }

  redact(input: string): string {
    let out = input;
    for (const { value } of this.secrets) if (out.includes(value)) out = out.split(value).join(REDACTED);
    out = blankTokens(out);
    return out.includes('[') ? this.cuts(out) : this.cutAtEnd(out);
  }

  /** Text cut before it got here keeps part of a secret, beside a mark or at its very end. */
  private cuts(text: string): string {
    const parts: string[] = [];
    const heads: boolean[] = [];
    let last = 0;
    for (const m of text.matchAll(CUT_MARK)) {
      parts.push(text.slice(last, m.index), m[0]);
      heads.push(m[1] !== undefined);
      last = m.index + m[0].length;
    }
    parts.push(text.slice(last));
    let changed = false;
    for (let i = 0; i < parts.length; i += 2) {
      const seg = parts[i]!;
      const mark = i / 2; // the mark after this segment is heads[mark], the one before it heads[mark - 1]
      let end = seg.length;
      if (mark >= heads.length || heads[mark] === true)
        end -= Math.max(this.atEnd(seg, mark >= heads.length), mark < heads.length ? tokenAtEnd(seg) : 0);
      const start = mark > 0 && heads[mark - 1] === false ? this.atStart(seg) : 0;
      if (start === 0 && end === seg.length) continue;
      changed = true;
      parts[i] =
        start >= end
          ? REDACTED
          : `${start > 0 ? REDACTED : ''}${seg.slice(start, end)}${end < seg.length ? REDACTED : ''}`;
    }
    return changed ? parts.join('') : text;
  }

  /** Without marks, only a distinctive secret tells its end was cut. */
  private cutAtEnd(text: string): string {
    const n = this.atEnd(text, true);
    return n === 0 ? text : text.slice(0, text.length - n) + REDACTED;
  }

  private atEnd(seg: string, distinctiveOnly = false): number {
    if (seg.length < MIN_SECRET) return 0;
    const candidates = (this.byPiece.get(seg.slice(-MIN_SECRET)) ?? []).filter(
      (s) => !distinctiveOnly || s.distinctive,
    );
    const found = candidates.map((s) => s.prefixEnding(seg));
    return Math.max(0, ...found.filter((n) => n >= MIN_SECRET));
  }

  private atStart(seg: string): number {
    if (seg.length < MIN_SECRET) return 0;
    const found = (this.byPiece.get(seg.slice(0, MIN_SECRET)) ?? []).map((s) => s.suffixStarting(seg));
    return Math.max(0, ...found.filter((n) => n >= MIN_SECRET));
  }
}

/** KMP tables: how much of the secret a text ends or starts with, in O(length), whatever it repeats. */
class Affixes {
  private readonly reversed: string;
  private readonly forward: Int32Array;
  private readonly backward: Int32Array;
  readonly distinctive: boolean;

  constructor(readonly value: string) {
    this.distinctive = distinctive(value);
    // By code unit, as the text is read (a code-point reverse would reorder surrogate pairs).
    this.reversed = Array.from({ length: value.length }, (_, i) => value[value.length - 1 - i]).join('');
    this.forward = failure(value);
    this.backward = failure(this.reversed);
  }

  prefixEnding(text: string): number {
    return match(this.value, this.forward, text.length - this.value.length, text.length, (i) => text.charCodeAt(i), 1);
  }

  suffixStarting(text: string): number {
    const n = Math.min(text.length, this.value.length);
    return match(this.reversed, this.backward, n - 1, -1, (i) => text.charCodeAt(i), -1);
  }
}

function failure(p: string): Int32Array {
  const fail = new Int32Array(p.length);
  for (let i = 1, k = 0; i < p.length; i++) {
    while (k > 0 && p.charCodeAt(i) !== p.charCodeAt(k)) k = fail[k - 1]!;
    if (p.charCodeAt(i) === p.charCodeAt(k)) k++;
    fail[i] = k;
  }
  return fail;
}

function match(p: string, fail: Int32Array, from: number, to: number, at: (i: number) => number, step: 1 | -1): number {
  let q = 0;
  for (let i = step === 1 ? Math.max(0, from) : from; i !== to; i += step) {
    const c = at(i);
    while (q > 0 && (q === p.length || p.charCodeAt(q) !== c)) q = fail[q - 1]!;
    if (p.charCodeAt(q) === c) q++;
  }
  return q;
}
