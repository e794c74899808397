// docs/examples/library/one-server.ts: one server built in code, with progress, a deadline and typed input errors.
import { scan, ScanInputError, type ProgressEvent, type Target } from 'idemscan';

const [command = 'npx', ...args] = process.argv.slice(2);
const target: Target = { name: 'mine', source: 'one-server.ts', transport: 'stdio', command, args };

const onProgress = (e: ProgressEvent) => {
  if (e.type === 'warning') console.error(`warning: ${e.message}`);
  if (e.type === 'done') console.error(`${e.server.name}: ${e.server.status} in ${e.server.durationMs} ms`);
};

try {
  // The signal stops the scan as Ctrl-C does: running servers are ended, the report says so.
  const report = await scan([target], { timeoutMs: 20_000, trust: ['mine'], onProgress, signal: AbortSignal.timeout(60_000) });
  const server = report.servers[0];
  for (const tool of server?.tools ?? []) {
    const keys = tool.keyArguments.map((k) => `${k.path} (${k.confidence})`).join(', ');
    console.log(`${tool.name}\t${tool.verdict}${keys ? `\tkey ${keys}` : ''}`);
  }
  if (report.options.interrupted) console.error('stopped before the end');
} catch (err) {
  // A malformed target or option (say, no `transport`) is the caller's mistake: thrown, never a server failure.
  if (!(err instanceof ScanInputError)) throw err;
  console.error(`${err.kind} ${err.path}: ${err.detail}`);
  process.exitCode = 2;
}
