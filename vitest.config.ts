import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Four projects (CONTRIBUTING.md, "Tests"), each with its script: `unit` pure (no process, no
 * socket: test/helpers/pure-guard.ts refuses both), `stress` the bounds on inputs sized to break
 * them, `integration` real servers, real processes and the built CLI, `browser` the HTML report in
 * Chromium. `vitest run` runs them all, unit first and stress alone, so that the stress files'
 * CPU never shares the two cores with an integration test's servers.
 */
export default defineConfig({
  test: {
    // Tests never touch the user's cache (era memo, npm installs).
    env: { IDEMSCAN_CACHE: path.join(os.tmpdir(), `idemscan-test-cache-${process.pid}`) },
    // Integration tests spawn real server processes; two cores means modest parallelism.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest reads pool options from here only. Unit files share two threads, not recycled per
    // file: the modules they import are loaded twice, not once per file (a third of the time).
    poolOptions: { forks: { maxForks: 2 }, threads: { maxThreads: 2, isolate: false } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          setupFiles: ['test/helpers/pure-guard.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'stress', include: ['test/stress/**/*.test.ts'], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], sequence: { groupOrder: 2 } },
      },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
