// docs/examples/retry/lost-response.ts: re-issue a call whose answer was lost only when retryDecision allows it.
import { randomUUID } from 'node:crypto';
import { Client, SdkError, SdkErrorCode, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { retryDecision, withRetryKey } from 'idemscan';

/** The call may or may not have happened: tell the caller, never guess. */
export class OutcomeUnknown extends Error {}

const lost = (err: unknown) => err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;

/**
 * The server's capabilities as sent: the SDK's getServerCapabilities() drops what its schema does not
 * know, `tools.idempotency` included, so they are read off the wire as the answer to the handshake arrives.
 */
export function rawCapabilities(transport: StdioClientTransport): () => Record<string, unknown> | undefined {
  let seen: Record<string, unknown> | undefined;
  let handler: StdioClientTransport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    get: () => handler,
    set: (h: StdioClientTransport['onmessage']) => {
      handler = h && ((message, ...more) => {
        const result = (message as { result?: { capabilities?: Record<string, unknown> } }).result;
        seen ??= result?.capabilities;
        h(message, ...more);
      });
    },
  });
  return () => seen;
}

export async function callTool(client: Client, tool: Tool, args: Record<string, unknown>, opts: { timeout: number; capabilities?: Record<string, unknown>; trusted?: boolean }) {
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

// node --import tsx lost-response.ts TOOL ARGS_JSON -- COMMAND [ARGS...]
const [name = '', json = '{}', , command = 'node', ...rest] = process.argv.slice(2);
const client = new Client({ name: 'retry-example', version: '1.0.0' });
const transport = new StdioClientTransport({ command, args: rest, env: { ...process.env } as Record<string, string> });
const capabilities = rawCapabilities(transport);
await client.connect(transport);
const tool = (await client.listTools()).tools.find((t) => t.name === name);
if (!tool) throw new Error(`no tool ${name}`);
try {
  const result = await callTool(client, tool, JSON.parse(json) as Record<string, unknown>, { timeout: 1_000, capabilities: capabilities() });
  console.log(JSON.stringify(result.content));
} catch (err) {
  if (!(err instanceof OutcomeUnknown)) throw err;
  console.log(`outcome unknown: ${err.message}`);
}
await client.close();
