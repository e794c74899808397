/**
 * The floor: the least a scanner must do per server. One spawn, `server/discover` (and, when a
 * 2025-era server refuses it, `initialize` and `notifications/initialized`), one `tools/list`,
 * then SIGTERM and wait for exit. No validation, no classification, no report, no process-group
 * bookkeeping.
 */
import { spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'floor', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'floor', version: '0' } };

/** What to start: the command, args, env (over the default environment) and cwd idemscan would use. */
export interface FloorLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export function floorScan({ command, args, env, cwd }: FloorLaunch): Promise<number> {
  return new Promise((resolve, reject) => {
    // The environment idemscan gives servers: an inherited NODE_EXTRA_CA_CERTS alone costs each
    // node server ~25 ms of start-up, which would flatter idemscan.
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...getDefaultEnvironment(), ...env },
      cwd,
      // A session of its own, as idemscan starts every server: with the kernel's autogroup
      // scheduling each session gets its own share of the CPU, so on a busy machine servers left
      // in this process's session would run slower than idemscan's and flatter it.
      detached: true,
    });
    let buffer = '';
    let tools = -1;
    const write = (msg: Record<string, unknown>) =>
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    const listTools = () => write({ id: 2, method: 'tools/list', params: { _meta: META } });
    child.stdin.on('error', () => {});
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: { id?: number; result?: { tools?: unknown[] }; error?: unknown };
        try {
          msg = JSON.parse(line);
        } catch {
          continue; // a banner or a log line: real servers print them
        }
        if (msg.id === 1 && msg.error) write({ id: 3, method: 'initialize', params: INITIALIZE });
        else if (msg.id === 1) listTools();
        if (msg.id === 3) {
          write({ method: 'notifications/initialized' });
          listTools();
        }
        if (msg.id === 2) {
          tools = msg.result?.tools?.length ?? 0;
          child.kill('SIGTERM');
        }
      }
    });
    child.once('error', reject);
    child.once('exit', () =>
      tools >= 0 ? resolve(tools) : reject(new Error(`${command} exited before listing tools`)),
    );
    write({ id: 1, method: 'server/discover', params: { _meta: META } });
  });
}
