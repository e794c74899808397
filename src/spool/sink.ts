/**
 * Where a scan puts each server as it finishes. The library's `scan()` keeps them in memory and
 * returns them; the CLI's `scan` writes them to a spool file (./file-spool.ts), so memory does not
 * grow with the number of servers and an interrupted run keeps every server it finished.
 */
import type { ServerReport } from '../model/schema.js';

export interface ServerSink {
  /** `position`: the target's place in the list; servers are read back in that order. */
  add(position: number, server: ServerReport): void;
  /** The servers added, in list order; each call reads them anew. */
  servers(): Iterable<ServerReport>;
  readonly size: number;
}

export class MemorySink implements ServerSink {
  private readonly byPosition = new Map<number, ServerReport>();

  add(position: number, server: ServerReport): void {
    this.byPosition.set(position, server);
  }

  servers(): ServerReport[] {
    return [...this.byPosition].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  }

  get size(): number {
    return this.byPosition.size;
  }
}
