import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~db": path.resolve(__dirname, "db"),
      "~": path.resolve(__dirname, "app"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    globals: true,
    environment: "node",
    // Each test file gets its own temporary SQLite database (see tests/setup.ts).
    setupFiles: ["tests/setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
  },
});
