/**
 * Closes still running after their server's pool slot was freed. A listed stdio server may take
 * its grace period to exit (SIGTERM, then SIGKILL, then its namespace's teardown); nothing the
 * report needs comes from that wait, so the next server need not queue behind it. The scan awaits
 * them all before it returns: no process of it outlives `scan()`.
 */
export class PendingCloses {
  private readonly pending = new Set<Promise<void>>();

  /** A close that failed ends nothing more than it did in the foreground: it must not go unhandled. */
  add(close: Promise<unknown>): void {
    const settled: Promise<void> = close.then(
      () => {},
      () => {},
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  /** Resolves once every close added, also one added while waiting, has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
