import type { ScanFailure } from './failure.js';

export interface ChannelEvents {
  /** Every JSON-RPC frame, raw: nothing stripped, nothing validated. */
  onmessage?: (message: Record<string, unknown>) => void;
  /** The connection ended on its own (process exit, stream error). */
  onclose?: (reason: ScanFailure) => void;
}

/** How one message is sent. */
export interface SendOptions {
  /**
   * On the wire at most once: never sent again by the transport or its auth layer (after a 401 and
   * a token refresh, a 403 step-up, a redirect). The probe's `tools/call`: the server may have
   * carried out a call it then refused, and docs/PROBE.md bounds how often each call is sent.
   */
  once?: boolean;
}

/** One connection to one server, as a stream of raw JSON-RPC frames. */
export interface Channel {
  /** Which transport: the one fact the connector asks of it (era probing differs per transport). */
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
