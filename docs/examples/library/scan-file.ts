// docs/examples/library/scan-file.ts: scan the servers of a target file, list the tools a client must not retry.
import { loadTargetFile, scan, TargetFileError, VERDICTS } from 'idemscan';

const file = process.argv[2] ?? 'mcp.json';
try {
  // Any format the CLI reads: an idemscan list, an mcpServers config, VS Code's mcp.json, a server.json.
  const { targets, skipped } = await loadTargetFile(file);
  for (const s of skipped) console.error(`skipped ${s.name}: ${s.reason}`);
  const report = await scan(targets, { timeoutMs: 20_000, concurrency: 2, skipped });

  for (const server of report.servers) {
    if (server.status === 'failed') {
      console.log(`${server.name}: failed (${server.failure?.kind}): ${server.failure?.message}`);
      continue;
    }
    const unsafe = server.tools.filter((t) => !VERDICTS.find((v) => v.id === t.verdict)?.retrySafe);
    console.log(`${server.name}: ${server.tools.length} tools, not safe to retry: ${unsafe.map((t) => `${t.name} (${t.verdict})`).join(', ') || 'none'}`);
  }
  console.log(`unprotected tools in all: ${report.summary.unprotected}`);
} catch (err) {
  // The whole file could not be used (missing, not JSON, an unknown shape); bad entries are `skipped`.
  if (!(err instanceof TargetFileError)) throw err;
  console.error(`${err.kind}: ${err.message}`);
  process.exitCode = 2;
}
