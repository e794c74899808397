// A number within a schema's bounds: 1 where allowed (a count, a page, an id), else the nearest allowed.
import { finite, type Schema } from './arguments-common.js';

/** Multiples of `multipleOf` tried from a bound before giving up (an integer multiple of 0.3 is the 10th). */
const MULTIPLE_TRIES = 64;
/** How close `value / multipleOf` must be to an integer: the floating error of one division. */
const MULTIPLE_EPSILON = 1e-9;

interface Bounds {
  lo?: number;
  loEx: boolean;
  hi?: number;
  hiEx: boolean;
  step?: number;
  integer: boolean;
}

/** Draft 4 makes `exclusiveMinimum` a flag on `minimum`; draft 6 on makes it a bound of its own. */
function bounds(schema: Schema, integer: boolean): Bounds {
  const b: Bounds = { lo: finite(schema.minimum), loEx: false, hi: finite(schema.maximum), hiEx: false, integer };
  if (schema.exclusiveMinimum === true) b.loEx = b.lo !== undefined;
  const exLo = finite(schema.exclusiveMinimum);
  if (exLo !== undefined && (b.lo === undefined || exLo >= b.lo)) Object.assign(b, { lo: exLo, loEx: true });
  if (schema.exclusiveMaximum === true) b.hiEx = b.hi !== undefined;
  const exHi = finite(schema.exclusiveMaximum);
  if (exHi !== undefined && (b.hi === undefined || exHi <= b.hi)) Object.assign(b, { hi: exHi, hiEx: true });
  const m = finite(schema.multipleOf);
  b.step = m !== undefined && m > 0 ? m : undefined;
  return b;
}

function allowed(b: Bounds, v: number): boolean {
  if (!Number.isFinite(v)) return false;
  if (b.lo !== undefined && (v < b.lo || (b.loEx && v === b.lo))) return false;
  if (b.hi !== undefined && (v > b.hi || (b.hiEx && v === b.hi))) return false;
  if (b.integer && !Number.isInteger(v)) return false;
  if (b.step === undefined) return true;
  const q = v / b.step;
  return Math.abs(q - Math.round(q)) < MULTIPLE_EPSILON;
}

/** Walks multiples of the step from `from`, up or down. */
function walk(b: Bounds, from: number, up: boolean): number | undefined {
  const step = b.step ?? 1;
  let k = up ? Math.ceil(from / step) : Math.floor(from / step);
  for (let t = 0; t < MULTIPLE_TRIES; t++, k += up ? 1 : -1) {
    const v = k * step + 0; // never -0
    if (allowed(b, v)) return v;
  }
  return undefined;
}

/** A real number next to an exclusive bound: one past it, or the middle of a narrow range. */
function near(b: Bounds, from: number, up: boolean): number | undefined {
  const past = up ? from + 1 : from - 1;
  for (const v of [from, past]) if (allowed(b, v)) return v;
  if (b.lo === undefined || b.hi === undefined) return undefined;
  const mid = (b.lo + b.hi) / 2;
  return allowed(b, mid) ? mid : undefined;
}

function nearest(b: Bounds): number | undefined {
  if (allowed(b, 1)) return 1;
  const stepped = b.step !== undefined || b.integer;
  // With no lower bound, the first positive multiple: a count of 0 is often refused.
  const from = b.lo ?? (b.hi !== undefined && b.hi < 1 ? undefined : (b.step ?? 1));
  if (from !== undefined) {
    const up = stepped ? walk(b, from, true) : near(b, from, true);
    if (up !== undefined) return up;
  }
  if (b.hi === undefined) return undefined;
  return stepped ? walk(b, b.hi, false) : near(b, b.hi, false);
}

export function makeNumber(schema: Schema, integer: boolean): { value: number } | { why: string } {
  const b = bounds(schema, integer);
  if (b.lo !== undefined && b.hi !== undefined && b.lo > b.hi) return { why: `minimum ${b.lo} above maximum ${b.hi}` };
  const value = nearest(b);
  if (value !== undefined) return { value };
  return { why: `no ${integer ? 'integer' : 'number'} within the bounds` };
}
