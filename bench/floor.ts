/**
 * The floor: the least a scanner must do per server. One spawn, `server/discover`, one
 * `tools/list`, then SIGTERM and wait for exit. No validation, no classification, no report,
 * no process-group bookkeeping.
 */
import { spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'floor', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function floorScan(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // The environment idemscan gives servers: an inherited NODE_EXTRA_CA_CERTS alone costs each
    // node server ~25 ms of start-up, which would flatter idemscan.
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: getDefaultEnvironment() });
    let buffer = '';
    let tools = -1;
    const send = (id: number, method: string) =>
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META } }) + '\n');
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { id?: number; result?: { tools?: unknown[] } };
        buffer = buffer.slice(nl + 1);
        if (msg.id === 1) send(2, 'tools/list');
        if (msg.id === 2) {
          tools = msg.result?.tools?.length ?? 0;
          child.kill('SIGTERM');
        }
      }
    });
    child.once('error', reject);
    child.once('exit', () => (tools >= 0 ? resolve(tools) : reject(new Error('server exited before listing tools'))));
    send(1, 'server/discover');
  });
}
