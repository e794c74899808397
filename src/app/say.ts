/** app/ never prints: it hands lines, escaped and bounded by render/message.ts, to the caller's writer. */
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
