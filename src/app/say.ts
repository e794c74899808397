/**
 * What a use case has to say, handed to the caller: app/ never prints. The CLI passes its own
 * writer (cli/say.ts, which knows `-q`); a library caller may collect the lines or drop them. Each
 * line is text render/message.ts made, so every value in it is escaped and bounded already.
 */
import type { Shown } from '../model/shown.js';

export interface Say {
  /** The run is less than asked, or something looks like a mistake: shown even with -q. */
  warn(text: Shown): void;
  /** What went wrong or was not done: shown even with -q. */
  tell(text: Shown): void;
  /** What was done (wrote, suppressed): dropped by -q. */
  note(text: Shown): void;
  /** Whole lines with their own layout (the drift listing); `always`: even with -q. */
  lines(text: Shown, always: boolean): void;
}
