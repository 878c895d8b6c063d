import { defineConfig } from "drizzle-kit";

/** The PostgreSQL schema's migrations (`npm run db:generate:postgres`); SQLite's are in drizzle.config.ts. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/postgres/schema.ts",
  out: "./db/migrations-postgres",
});
