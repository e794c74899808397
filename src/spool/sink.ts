// The CLI spools servers to disk so memory does not grow with them and an interrupted run keeps them.
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
