/**
 * A signal during a scan marks the report interrupted, also when it lands as the scan finishes.
 * The test sends SIGTERM to its own process: a fork here, where the unit project's threads would
 * hand it to the test runner itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { watchSignals, type Interrupt } from '../../src/shell/signals.js';
import type { Report } from '../../src/model/schema.js';

describe('signals', () => {
  let interrupt: Interrupt | undefined;
  afterEach(() => {
    interrupt?.dispose();
    process.exitCode = undefined;
  });

  it('a signal that arrives as the scan finishes still marks the report', async () => {
    interrupt = watchSignals();
    const report = { options: { concurrency: 1 }, servers: [{}, {}] } as unknown as Report;
    // Sent now, delivered by the event loop later: as when the thread was busy with a server.
    process.kill(process.pid, 'SIGTERM');
    const settled = await interrupt.settle(report, 2, 2);
    expect(interrupt.interrupted).toBe(true);
    expect(settled.options).toEqual({ concurrency: 1, interrupted: true, scanned: 2, targets: 2 });
  });

  it('leaves a report alone when no signal came', async () => {
    interrupt = watchSignals();
    const report = { options: {}, servers: [] } as unknown as Report;
    expect(await interrupt.settle(report, 0, 0)).toBe(report);
  });
});
