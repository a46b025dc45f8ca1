import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
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
          passWithNoTests: true,
        },
      },
    ],
  },
});
