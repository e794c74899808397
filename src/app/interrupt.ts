/** What a signal changes in a run; the wiring of the signals is shell/signals.ts. */
import type { Report } from '../model/schema.js';
import type { Shown } from '../model/shown.js';
import { joinShown, msg, show } from '../render/message.js';

export { killAllServers } from '../connect/stdio.js';

export async function settleReport<T extends Pick<Report, 'options'>>(
  stop: AbortSignal,
  report: T,
  scanned: number,
  targets: number,
): Promise<T> {
  // A signal pending while the thread was busy is seen in the poll phase; only the second immediate surely follows it.
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
  if (!stop.aborted || report.options.interrupted) return report;
  return { ...report, options: { ...report.options, interrupted: true, scanned, targets } };
}

export interface Unscanned {
  name: string;
  ranMs?: number;
}

/** Servers named after Ctrl-C, at most; the rest are counted. */
const LISTED = 10;

/** `not scanned (2 of 4): hang (stopped after 3.1 s), hang-2 (not started)`. */
export function unscannedText(unscanned: readonly Unscanned[], targets: number): Shown | undefined {
  if (unscanned.length === 0) return undefined;
  const named = unscanned
    .slice(0, LISTED)
    .map(
      (u) =>
        msg`${show.name(u.name)} (${u.ranMs === undefined ? 'not started' : `stopped after ${(u.ranMs / 1000).toFixed(1)} s`})`,
    );
  const more = unscanned.length > LISTED ? `, and ${unscanned.length - LISTED} more` : '';
  return msg`not scanned (${unscanned.length} of ${targets}): ${joinShown(named, ', ')}${more}`;
}
