import type { ScanFailure } from './failure.js';

export interface ChannelEvents {
  /** Every JSON-RPC frame, raw: nothing stripped, nothing validated. */
  onmessage?: (message: Record<string, unknown>) => void;
  /** The connection ended on its own (process exit, stream error). */
  onclose?: (reason: ScanFailure) => void;
}

export interface SendOptions {
  /** Never sent again (after a 401 refresh, a step-up, a redirect): the server may have acted on it. */
  once?: boolean;
}

/** One connection to one server, as a stream of raw JSON-RPC frames. */
export interface Channel {
  /** Era probing differs per transport. */
  readonly kind: 'stdio' | 'streamable' | 'sse';
  /** Started, alive, and silent so far (stdio only): a server still starting up. */
  readonly starting?: boolean;
  readonly events: ChannelEvents;
  start(): Promise<void>;
  send(message: unknown, opts?: SendOptions): Promise<void>;
  close(): Promise<void>;
  /** Called once the handshake has chosen a legacy version (HTTP sends it as a header). */
  setProtocolVersion?(version: string): void;
}
