/** Starts test/fixtures/registry-server.mjs (a fixture MCP Registry on 127.0.0.1) and resolves once it listens. */
import { fileURLToPath } from 'node:url';
import { startListening, type RunningServer } from './hostile-http.js';

const REGISTRY_FIXTURE = fileURLToPath(new URL('../fixtures/registry-server.mjs', import.meta.url));

/** `hits()`: every request's path and query so far, in order. */
export type FixtureRegistry = RunningServer;

export function startFixtureRegistry(env: Record<string, string>): Promise<FixtureRegistry> {
  return startListening(REGISTRY_FIXTURE, env, /^LISTENING (http:\/\/127\.0\.0\.1:\d+)$/m, (line) => line.slice(4));
}
