import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files about SQLite itself (tests/postgres/ holds the PostgreSQL side of each), and `npm run migrate`'s, whose
 * processes it starts on SQLite files of its own whichever engine the run's project gives the file.
 */
const SQLITE_ONLY = [
  "tests/server/migrate-command.test.ts",
  "tests/server/sqlite-async.test.ts",
  "tests/server/hub-token-migration.test.ts",
  "tests/server/organizations-migration.test.ts",
  "tests/server/end-customers-migration.test.ts",
  "tests/server/invoices-billed-to-migration.test.ts",
];

/**
 * Test files whose imports never reach the portal's database (pure rules, components, the build, the architecture's
 * lints, the two dialects' schemas compared in one file), or that read only the route modules' static parts (the
 * pages' security headers from their handles): running them again on PostgreSQL would test nothing new.
 */
const NO_DATABASE = [
  "tests/domain/**",
  "tests/ui/**",
  "tests/framework/**",
  "tests/bench/**",
  "tests/db/**",
  "tests/architecture/clock-lint.test.ts",
  "tests/architecture/import-graph.test.ts",
  "tests/architecture/promise-lint.test.ts",
  "tests/architecture/outside-sdks.test.ts",
  "tests/server/card-pages-policy.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "~db": fileURLToPath(new URL("./db", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@mantine-parts": fileURLToPath(new URL("./node_modules/@mantine/core/esm", import.meta.url)),
    },
  },
  test: {
    globals: true,
    environment: "node",
    // Each test file gets its own temporary SQLite database (see tests/setup.ts).
    setupFiles: ["tests/setup.ts"],
    pool: "forks",
    // vitest's default is one worker fewer than the cores: one on CI's two. Two files at a time overlap what one
    // waits on (PostgreSQL, a child process, a timer) with the other's work.
    maxWorkers: 2,
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
          exclude: ["tests/postgres/**"],
          globalSetup: ["tests/support/sqlite-global-setup.ts"],
        },
      },
      {
        // Every test again, with the portal on PostgreSQL (tests/setup.ts gives each file a copy of the migrated
        // template), but those about SQLite itself (its files, its migrations' data steps, its async driver) and
        // those that reach no database.
        extends: true,
        test: {
          name: "postgres-all",
          include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
          exclude: ["tests/postgres/**", ...SQLITE_ONLY, ...NO_DATABASE],
          env: { TEST_DATABASE_ENGINE: "postgres" },
          globalSetup: ["tests/support/postgres-global-setup.ts"],
        },
      },
      {
        // Tests against PostgreSQL: a throwaway cluster (or TEST_POSTGRES_URL's server) and a migrated template,
        // set up only when a run includes one of them; each file copies the template (tests/support/postgres.ts).
        extends: true,
        test: {
          name: "postgres",
          include: ["tests/postgres/**/*.test.ts"],
          // Each file makes its own databases and starts the portal on one when it needs it.
          env: { TEST_PORTAL_BOOT: "by-the-file" },
          globalSetup: ["tests/support/postgres-global-setup.ts"],
        },
      },
    ],
  },
});
