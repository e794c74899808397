/**
 * The unit project's setup file (vitest.config.ts): a unit test starts no process and opens no
 * socket, so that `npm run test:unit` stays fast and means the same on a loaded machine. Every way
 * to start one fails here with the test's own stack; such a test belongs in test/integration.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
type Fn = (...args: unknown[]) => unknown;
const refuse = (what: string) => () => {
  throw new Error(`${what}: a unit test starts no process and opens no socket; move it to test/integration`);
};

const childProcess = require('node:child_process') as Record<string, Fn>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  childProcess[name] = refuse(`child_process.${name}`);
const net = require('node:net') as typeof import('node:net');
net.Server.prototype.listen = refuse('listen') as never;
net.Socket.prototype.connect = refuse('connect') as never;
const dgram = require('node:dgram') as typeof import('node:dgram');
dgram.Socket.prototype.bind = refuse('dgram bind') as never;
// `import { spawn } from 'node:child_process'` reads the patched functions too.
syncBuiltinESMExports();
