/** One server's tools, as a scan reads them: open a session, list, close. Always returns, never throws. */
import type { LaunchPlan } from '../launch/plan.js';
import type { ConnectOptions, Observation } from './connect-options.js';
import { open } from './session.js';

export { DEFAULT_CONNECT_OPTIONS, type ConnectOptions, type Observation } from './connect-options.js';

/** Unless `closes` is given, the server's processes are gone when this resolves. */
export async function observe(target: LaunchPlan, opts: ConnectOptions): Promise<Observation> {
  const opened = await open(target, opts);
  if (!opened.ok) return opened.observation;
  await opened.session.listTools();
  return opened.session.close();
}
