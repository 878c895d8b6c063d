import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~db": fileURLToPath(new URL("./db", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@mantine-parts": fileURLToPath(new URL("./node_modules/@mantine/core/esm", import.meta.url)),
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
