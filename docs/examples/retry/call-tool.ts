// docs/examples/retry/call-tool.ts: re-issue a call whose answer was lost only when retryDecision allows it.
// Helpers only: importing this file runs nothing. Needs `@modelcontextprotocol/client` (2.x) and idemscan.
import { randomUUID } from 'node:crypto';
import { SdkError, SdkErrorCode, type Client, type Tool } from '@modelcontextprotocol/client';
import { OutcomeUnknown, retryDecision, withRetryKey } from 'idemscan/retry';

export { OutcomeUnknown, rawCapabilities } from 'idemscan/retry';

const lost = (err: unknown) => err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;

export interface CallOptions {
  /** How long to wait for the answer, in ms, before it counts as lost. */
  timeout: number;
  /** The server's capabilities as sent (rawCapabilities), not the SDK's getServerCapabilities(). */
  capabilities?: Record<string, unknown>;
  /** You trust this server's hints (its idempotentHint then makes a re-issue safe). */
  trusted?: boolean;
}

export async function callTool(client: Client, tool: Tool, args: Record<string, unknown>, opts: CallOptions) {
  const { timeout, capabilities, trusted } = opts;
  const decision = retryDecision(tool, { capabilities, trusted });
  // Made before the first attempt, so that the re-issue carries the same key.
  const params = withRetryKey({ name: tool.name, arguments: args }, decision, randomUUID());
  try {
    return await client.callTool(params, { timeout });
  } catch (err) {
    if (!lost(err)) throw err;
    if (decision.decision !== 'safe' && decision.decision !== 'with-key') {
      throw new OutcomeUnknown(`${tool.name}: no answer, and a re-issue may repeat it (${decision.reason})`);
    }
    return await client.callTool(params, { timeout });
  }
}
