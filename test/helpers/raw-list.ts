/**
 * A stdio fixture server's own `initialize` and `tools/list` results, read over raw JSON-RPC as
 * any client would: what a server repository would commit as its saved tool list.
 */
import { spawn } from 'node:child_process';

export async function savedListOf(
  fixture: string,
  env: Record<string, string>,
): Promise<{ tools: unknown[]; capabilities?: unknown; serverInfo?: unknown }> {
  const child = spawn(process.execPath, [fixture], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const answers = new Map<number, Record<string, unknown>>();
  let buffered = '';
  const done = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const msg = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
        if (typeof msg.id === 'number' && msg.result) answers.set(msg.id, msg.result);
        if (msg.id === 1)
          child.stdin.write(
            JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
              '\n' +
              JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }) +
              '\n',
          );
        if (msg.id === 2) resolve();
      }
    });
    child.on('exit', () => reject(new Error('fixture exited before answering tools/list')));
  });
  child.stdin.write(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
    }) + '\n',
  );
  await done;
  child.stdin.end();
  const init = answers.get(1)!;
  return { tools: answers.get(2)!.tools as unknown[], capabilities: init.capabilities, serverInfo: init.serverInfo };
}
