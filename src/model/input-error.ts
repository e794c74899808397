// Every documented library error subclasses InputError; the CLI maps it to exit 2 in one place.
import { Shown } from './shown.js';

/** `field`: the flag or field that named it (`--baseline`, `targets[2].url`). */
export interface InputPlace {
  file?: string;
  field?: string;
}

export class InputError extends Error {
  readonly file?: string;
  readonly field?: string;
  /** Raw text: the CLI escapes and bounds it. */
  readonly detail: string;
  /** Already escaped and cut: shown as it is. */
  readonly shown?: Shown;

  constructor(detail: string | Shown, place: InputPlace = {}) {
    const text = detail instanceof Shown ? detail.text : detail;
    const where = [place.field, place.file].filter((p) => p !== undefined).join(' ');
    super(where ? `${where}: ${text}` : text);
    this.name = 'InputError';
    this.detail = text;
    if (detail instanceof Shown) this.shown = detail;
    if (place.file !== undefined) this.file = place.file;
    if (place.field !== undefined) this.field = place.field;
  }
}
