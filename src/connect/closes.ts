/** Closes that outlive their server's pool slot: the report needs nothing from them, but `scan()` awaits them. */
export class PendingCloses {
  private readonly pending = new Set<Promise<void>>();

  /** A failed close must not go unhandled. */
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
