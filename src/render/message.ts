/** Each interpolated value escaped (terminal.ts) and cut to a `LIMITS.shown` cap; `Shown` values go in as they are. */
import type { InputError } from '../model/input-error.js';
import { LIMITS } from '../model/limits.js';
import { Shown } from '../model/shown.js';
import { safeText } from './terminal.js';

type Cap = keyof typeof LIMITS.shown;

/** A value with the cap it is shown to; `quoted`: as a JSON string, so that spaces and quotes in it are seen. */
class Capped {
  constructor(
    readonly value: string,
    readonly cap: Cap,
    readonly quoted = false,
  ) {}
}

type Value = string | number | Shown | Capped;

const cap = (name: Cap) => (value: string) => new Capped(value, name);

/** `show.path(file)`: the value, to be shown to the cap of its kind. */
export const show = {
  name: cap('name'),
  path: cap('path'),
  url: cap('url'),
  reason: cap('reason'),
  message: cap('message'),
  /** `"a b"`: escaped, cut, then written as a JSON string. */
  quoted: (value: string, kind: Cap) => new Capped(value, kind, true),
};

function piece(v: Value): string {
  if (typeof v === 'number') return String(v);
  if (v instanceof Shown) return v.text;
  if (v instanceof Capped) {
    const text = safeText(v.value, LIMITS.shown[v.cap]);
    return v.quoted ? JSON.stringify(text) : text;
  }
  return safeText(v, LIMITS.shown.message);
}

export function msg(strings: TemplateStringsArray, ...values: Value[]): Shown {
  let out = strings[0]!;
  values.forEach((v, i) => (out += piece(v) + strings[i + 1]!));
  return new Shown(out);
}

/** Shown texts joined by `sep`, a separator of ours (not escaped). */
export function joinShown(parts: readonly Shown[], sep: string): Shown {
  return new Shown(parts.map((p) => p.text).join(sep));
}

/** Reporters already escape every value they quote. */
export function rendered(text: string): Shown {
  return new Shown(text);
}

/** An input error as the CLI shows it: `--baseline old.lock: invalid lock file: ...`. */
export function inputErrorText(err: InputError): Shown {
  const where = [
    ...(err.field === undefined ? [] : [msg`${show.name(err.field)}`]),
    ...(err.file === undefined ? [] : [msg`${show.path(err.file)}`]),
  ];
  const detail = err.shown ?? err.detail;
  return where.length ? msg`${joinShown(where, ' ')}: ${detail}` : msg`${detail}`;
}
