import { describe, expect, it } from "vitest";
import { loader as healthz } from "~/routes/healthz";
import { connection } from "~/server/platform/database/connection.server";
import { databaseAnswers } from "~/server/platform/database/db.server";

describe("the health check", () => {
  it("answers 200 while the database answers, and 503 once it does not", async () => {
    const before = (await healthz()) as Response;
    expect([before.status, await before.text()]).toEqual([200, "ok"]);

    // This file's own database connection (or pool), closed as a failed one would be.
    await connection.close();
    expect(await databaseAnswers()).toBe(false);
    const after = (await healthz()) as Response;
    expect([after.status, await after.text()]).toEqual([503, "database unavailable"]);
    expect(after.headers.get("Cache-Control")).toBe("no-store");
  });
});
