// `make cluster-test` only (root): the several-host scenarios, never part of `make test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/cluster/**/*.cluster.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // One cluster at a time: the scenarios share the bridge and the addresses.
    fileParallelism: false,
  },
});
