// docs/examples/retry/lost-response.ts: the command-line demo of call-tool.ts against one stdio server.
// Needs `@modelcontextprotocol/client` (2.x) and idemscan installed. Run it with tsx from a clone
// (`node --import tsx docs/examples/retry/lost-response.ts ...`), or compile it with tsc and run the .js.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { callTool, OutcomeUnknown, rawCapabilities } from './call-tool.js';

const USAGE = 'usage: lost-response.ts TOOL ARGS_JSON -- COMMAND [ARGS...]   (e.g. create_order \'{"item":"a"}\' -- node server.js)';
const [name, json, dashes, command, ...rest] = process.argv.slice(2);
if (!name || json === undefined || dashes !== '--' || !command) {
  console.error(USAGE);
  process.exit(2);
}
const client = new Client({ name: 'retry-example', version: '1.0.0' });
const transport = new StdioClientTransport({ command, args: rest, env: { ...process.env } as Record<string, string> });
const capabilities = rawCapabilities(transport);
await client.connect(transport);
try {
  const tool = (await client.listTools()).tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const result = await callTool(client, tool, JSON.parse(json) as Record<string, unknown>, { timeout: 1_000, capabilities: capabilities() });
  console.log(JSON.stringify(result.content));
} catch (err) {
  if (!(err instanceof OutcomeUnknown)) throw err;
  console.log(`outcome unknown: ${err.message}`);
} finally {
  await client.close();
}
