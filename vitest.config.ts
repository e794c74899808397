import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests never touch the user's cache (era memo, npm installs).
    env: { IDEMSCAN_CACHE: path.join(os.tmpdir(), `idemscan-test-cache-${process.pid}`) },
    // Integration tests spawn real server processes; two cores means modest parallelism.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2 } },
  },
});
