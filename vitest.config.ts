import { defineConfig } from 'vitest/config';

/*
 * Every project runs its files without isolation: a worker imports the app's modules once and runs file after file in
 * the same module graph, instead of importing everything again for each file (1.5 s a file here). Each server file
 * still has a database and an app of its own (test/harness.ts createTestApp), so what a file sees of another is only
 * module-level state, and that holds nothing of a database: reference data read once (currency codes), statement
 * texts, and the remembered merchant keys, whose use checks them against the database's row every time
 * (merchant-api/signature.ts). docs/benchmarks.md, "Test suite": 367 → 268 s, CPU 651 → 454 s.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: ['apps/server/test/global-setup.ts'],
          // passwords hashed at scrypt N=2^14, not 2^17: the suites sign in a thousand times (lib/password.ts)
          env: { PASSWORD_HASH_COST: '14' },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          fileParallelism: true,
        },
      },
      {
        test: {
          // the repository's own rules: import boundaries as lint errors
          name: 'lint',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          testTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'web',
          sequence: { groupOrder: 1 },
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          isolate: false,
          passWithNoTests: true,
        },
      },
    ],
  },
});
