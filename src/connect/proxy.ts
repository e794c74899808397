/** HTTPS_PROXY / HTTP_PROXY / NO_PROXY through undici's EnvHttpProxyAgent, which Node's fetch does not export. */
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';

const NAMES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
let agent: { key: string; dispatcher: Dispatcher } | undefined;

export function proxyDispatcher(env: NodeJS.ProcessEnv = process.env): Dispatcher | undefined {
  const key = [...NAMES, 'NO_PROXY', 'no_proxy'].map((n) => env[n] ?? '').join('\n');
  if (!NAMES.some((n) => env[n])) return undefined;
  if (agent?.key !== key) agent = { key, dispatcher: new EnvHttpProxyAgent() };
  return agent.dispatcher;
}
