/**
 * The one type of "the input is bad": a file, a flag, a config, a target a library caller built.
 * Whoever reads the input throws it where the problem is found, naming the file and the field; the
 * CLI maps it to exit 2 in one place (cli/main.ts) and shows it through render/message.ts. The
 * library's documented errors (TargetFileError, ReportFileError, ScanInputError, PlanError,
 * MergeError) are subclasses, so `instanceof InputError` takes them all.
 */
import { Shown } from './shown.js';

/** Where the bad input is: the file, and the flag or field that named it (`--baseline`, `targets[2].url`). */
export interface InputPlace {
  file?: string;
  field?: string;
}

export class InputError extends Error {
  readonly file?: string;
  readonly field?: string;
  /** What is wrong, as raw text (the CLI escapes and bounds it), or as `shown` text. */
  readonly detail: string;
  /** The detail when it was made by render/message.ts (its values escaped and cut already): shown as it is. */
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
