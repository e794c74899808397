/**
 * HTTP targets and OAuth requests honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case
 * forms) as corporate networks expect, through undici's EnvHttpProxyAgent. Node 20's fetch is
 * undici 6 inside but does not export the agent, hence the `undici` dependency (same major).
 * Without any proxy variable no dispatcher is set and fetch behaves exactly as before.
 */
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';

const NAMES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
let agent: { key: string; dispatcher: Dispatcher } | undefined;

export function proxyDispatcher(env: NodeJS.ProcessEnv = process.env): Dispatcher | undefined {
  const key = [...NAMES, 'NO_PROXY', 'no_proxy'].map((n) => env[n] ?? '').join('\n');
  if (!NAMES.some((n) => env[n])) return undefined;
  if (agent?.key !== key) agent = { key, dispatcher: new EnvHttpProxyAgent() };
  return agent.dispatcher;
}
