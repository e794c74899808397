/** What someone needs to repeat a scan, without the tools. */
import type { Reporter } from './types.js';

export const manifestReporter: Reporter = {
  render(report) {
    const manifest = {
      tool: report.tool,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      options: report.options,
      ...report.manifest,
      launches: report.servers.map((s) => ({
        name: s.name,
        ...s.target,
        status: s.status,
        protocol: s.protocol,
        serverInfo: s.serverInfo,
        durationMs: s.durationMs,
      })),
      skipped: report.skipped,
    };
    return JSON.stringify(manifest, null, 2) + '\n';
  },
};
