/**
 * What a client needs around `retryDecision()` besides the decision, free of any SDK: an error for
 * "outcome unknown", and the server's capabilities as sent (docs/RETRY.md).
 */

/** The call may or may not have happened: tell the caller, never guess. */
export class OutcomeUnknown extends Error {
  override name = 'OutcomeUnknown';
}

type OnMessage = (message: unknown, ...more: unknown[]) => void;

/**
 * The capabilities of the first answer that carries them, read off the transport as messages arrive.
 * Why: an SDK client's `getServerCapabilities()` drops what its schema does not know,
 * `tools.idempotency` (SEP-3182) included. `transport`: any object whose `onmessage` the client sets
 * (the SDK's transports); call this before the client connects.
 */
export function rawCapabilities(transport: object): () => Record<string, unknown> | undefined {
  let seen: Record<string, unknown> | undefined;
  let handler: OnMessage | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (h: OnMessage | undefined) => {
      handler =
        h &&
        ((message, ...more) => {
          seen ??= capabilitiesOf(message);
          h(message, ...more);
        });
    },
  });
  return () => seen;
}

function capabilitiesOf(message: unknown): Record<string, unknown> | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const result = (message as { result?: unknown }).result;
  if (!result || typeof result !== 'object') return undefined;
  const caps = (result as { capabilities?: unknown }).capabilities;
  return caps && typeof caps === 'object' && !Array.isArray(caps) ? (caps as Record<string, unknown>) : undefined;
}
