/** A static target's page goes through the same listing as a live one (list.ts): the report cannot tell them apart. */
import { sizeEstimate } from '../model/budget.js';
import type { SavedToolList } from '../targets/types.js';
import { keptSession, ServerBudget } from './budget.js';
import { listTools } from './list.js';
import type { Negotiated } from './negotiate.js';
import type { ConnectOptions, Observation } from './observe.js';

export async function observeSaved(saved: SavedToolList, opts: ConnectOptions): Promise<Observation> {
  const started = performance.now();
  // No era was negotiated: `static` is what the report's protocol would say, and app/scan/scan.ts leaves it out.
  const session: Negotiated = keptSession({
    era: 'legacy',
    version: 'static',
    capabilities: saved.capabilities,
    serverInfo: saved.serverInfo,
    notes: [],
  });
  const budget = new ServerBudget(opts.maxServerBytes);
  budget.charge(sizeEstimate([session.capabilities, session.serverInfo]));
  // One page, and no cursor: a saved nextCursor points into a server that is not here.
  const page = { ok: true as const, result: { tools: saved.tools } };
  const listing = await listTools({ request: () => Promise.resolve(page) }, session, {
    maxPages: 1,
    maxTools: opts.maxTools,
    remainingMs: () => opts.timeoutMs,
    budget,
  });
  return {
    session,
    tools: listing.tools,
    findings: listing.findings,
    durationMs: Math.round(performance.now() - started),
  };
}
