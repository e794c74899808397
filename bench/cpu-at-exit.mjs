// Preloaded by bench/startup.bench.ts (node --import): writes this process's own CPU time (user +
// system, microseconds; child processes excluded) to the file named by IDEMSCAN_BENCH_CPU at exit.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

process.once('exit', () => {
  const { user, system } = process.cpuUsage();
  writeFileSync(process.env.IDEMSCAN_BENCH_CPU, String(user + system));
});
