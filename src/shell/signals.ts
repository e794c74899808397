/**
 * Ctrl-C, SIGTERM and SIGHUP: the first stops the run and its report is written (exit 130); a later
 * one only hurries it, since `timeout` or a terminal may forward one Ctrl-C twice (docs/INTERNALS.md).
 */
import { killAllServers, settleReport } from '../app/interrupt.js';
import type { Interruption } from '../app/scan/scan-run.js';
import { msg } from '../render/message.js';
import { EXIT } from './exit.js';
import { lines, tell } from './say.js';

// SIGHUP too: servers run in their own process groups, so a closed terminal does not reach them.
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** How long a server may take to end on SIGTERM once the user asked to stop. */
const STOP_GRACE_MS = 500;
/** Last resort: a stop that has not finished by then (a step that ignores the signal) leaves without a report. */
const WATCHDOG_MS = 10_000;

export interface Interrupt extends Interruption {
  readonly signal: AbortSignal;
  /** Removes the listeners and timers (for library use and tests; the CLI keeps them to the end). */
  dispose(): void;
}

export function watchSignals(): Interrupt {
  const stop = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  const onSignal = signalHandler(stop, timers);
  for (const sig of SIGNALS) process.on(sig, onSignal);

  return {
    signal: stop.signal,
    get interrupted() {
      return stop.signal.aborted;
    },
    settle: (report, scanned, targets) => settleReport(stop.signal, report, scanned, targets),
    dispose() {
      for (const sig of SIGNALS) process.removeListener(sig, onSignal);
      for (const t of timers) clearTimeout(t);
    },
  };
}

function signalHandler(stop: AbortController, timers: NodeJS.Timeout[]): (signal: NodeJS.Signals) => void {
  let hurried = false;
  return (signal) => {
    if (stop.signal.aborted) {
      if (!hurried) tell(msg`${signal} again: ending the servers now; the report is still written`);
      hurried = true;
      killAllServers();
      return;
    }
    // On a line of its own: the terminal echoed ^C where the cursor was.
    lines(msg`\nidemscan: ${signal}: stopping; the servers scanned so far are kept\n`, true);
    stop.abort();
    // Whatever happens next (even a signal after the exit code was decided), the exit says so.
    process.exitCode = EXIT.interrupted;
    timers.push(setTimeout(killAllServers, STOP_GRACE_MS).unref());
    timers.push(
      setTimeout(() => {
        tell(msg`could not stop within ${WATCHDOG_MS / 1000} s; leaving without a report`);
        killAllServers();
        process.exit(EXIT.interrupted);
      }, WATCHDOG_MS).unref(),
    );
  };
}
