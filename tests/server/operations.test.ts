import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { loader as healthz } from "~/routes/healthz";
import { loader as readyz } from "~/routes/readyz";
import { beginStopping } from "~/server/operations/readiness.server";
import { connection } from "~/server/platform/database/connection.server";
import { db } from "~/server/platform/database/db.server";
import { jobs } from "~/server/platform/database/tables.server";
import { enqueueJob, JobRunner, type JobKind } from "~/server/platform/jobs/runner.server";
import { scrubLine } from "~/server/platform/log/log.server";
import { metricsRegistry } from "~/server/platform/metrics.server";
import { observedCalls } from "~/server/platform/provider-calls.server";
import { ProviderError } from "~/server/platform/provider-errors.server";
import { describeMember, runInContext } from "~/server/platform/log/request-context.server";
import { requestIdOf, routeIdOf } from "../../scripts/server.mjs";
import { captureLogs } from "../support/logs";
import { memberByEmail } from "../support/members";

describe("a request's id", () => {
  const request = (id?: string) => ({ headers: id === undefined ? {} : { "x-request-id": id } });

  it("is a trusted proxy's X-Request-Id when it looks like an id, else a new UUID", () => {
    expect(requestIdOf(request("4f2c9e0a1b2d3c4e5f60718293a4b5c6"), 1)).toBe("4f2c9e0a1b2d3c4e5f60718293a4b5c6");
    // Without a trusted proxy a client could write any id into the portal's log.
    expect(requestIdOf(request("chosen-by-the-client"), 0)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(request("a b<script>"), 1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(request("x".repeat(129)), 1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(request(), 1)).not.toBe(requestIdOf(request(), 1));
  });
});

describe("the route a request's line and metric name", () => {
  const routes = {
    root: { id: "root", path: "" },
    "routes/_portal": { id: "routes/_portal", parentId: "root" },
    "routes/_portal.home": { id: "routes/_portal.home", parentId: "routes/_portal", path: "home" },
    "routes/_portal.licenses.$licenseId.download": {
      id: "routes/_portal.licenses.$licenseId.download",
      parentId: "routes/_portal",
      path: "licenses/:licenseId/download",
    },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  };
  const routeOf = routeIdOf(routes);

  it("is the deepest matched route's id, never the path, for a page and its single-fetch data alike", () => {
    expect(routeOf("/home")).toBe("routes/_portal.home");
    expect(routeOf("/home.data")).toBe("routes/_portal.home");
    expect(routeOf("/licenses/lic_123/download")).toBe("routes/_portal.licenses.$licenseId.download");
    expect(routeOf("/")).toBe("routes/_index");
    expect(routeOf("/_root.data")).toBe("routes/_index");
    expect(routeOf("/no/such/page")).toBeNull();
  });
});

describe("what a log line may not hold", () => {
  it("masks email addresses and card numbers, whatever wrote them, and leaves ids, times and decimals alone", () => {
    const line = JSON.stringify({
      msg: "Invitation for dana.owner+ops@northwind.example failed; card 4242 4242 4242 4242 and 4000-0000-0000-0341",
      requestId: "12345678-1234-1234-1234-123456789012",
      time: "2026-11-28T10:58:49.044Z",
      durationMs: 1.0109559999982594,
      number: 4111111111111111,
      // 13 digits that pass Luhn's check, as one time in ten in milliseconds does.
      resourceVersion: 1764358800001,
    });
    const clean = scrubLine(line);
    expect(JSON.parse(clean)).toMatchObject({ number: "[card]", resourceVersion: 1764358800001 });
    expect(clean).not.toContain("northwind.example");
    expect(clean).not.toMatch(/4242|0341|4111111111111111/);
    expect(clean).toContain("12345678-1234-1234-1234-123456789012");
    expect(clean).toContain("2026-11-28T10:58:49.044Z");
    expect(clean).toContain("1.0109559999982594");
  });

  it("replaces fields named like a secret, and carries the request's id and who is signed in", async () => {
    const { logger } = await import("~/server/platform/log/log.server");
    const logs = captureLogs();
    runInContext({ requestId: "req-1" }, () => {
      describeMember("user-1", "org-1");
      logger.info({ event: "check", password: "hunter2", headers: { cookie: "gk_session=abc" }, token: "t0k" });
    });
    logs.restore();
    expect(logs.events("check")).toEqual([
      expect.objectContaining({
        requestId: "req-1",
        memberId: "user-1",
        organizationId: "org-1",
        password: "[redacted]",
        headers: "[redacted]",
        token: "[redacted]",
      }),
    ]);
  });
});

describe("a provider call", () => {
  it("is measured by provider, call and outcome, and logged with the work it is part of", async () => {
    const adapter = {
      async fine() {
        return 1;
      },
      async refused() {
        throw new ProviderError("No.", { kind: "final" });
      },
    };
    const observed = observedCalls("test-provider", adapter, { embedded: false });
    const logs = captureLogs();
    await runInContext({ requestId: "req-2" }, async () => {
      await observed.fine();
      await expect(observed.refused()).rejects.toThrow("No.");
    });
    logs.restore();
    expect(logs.events("provider-call")).toEqual([
      expect.objectContaining({ requestId: "req-2", provider: "test-provider", call: "fine", outcome: "ok" }),
      expect.objectContaining({ requestId: "req-2", provider: "test-provider", call: "refused", outcome: "final" }),
    ]);
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(
      /portal_provider_call_duration_seconds_count\{provider="test-provider",call="fine",outcome="ok"\} 1/,
    );
    expect(text).toMatch(
      /portal_provider_call_duration_seconds_count\{provider="test-provider",call="refused",outcome="final"\} 1/,
    );
  });
});

describe("a stopping runner", () => {
  it("gives its job back after the running step, and another runner finishes it at once, not after the lease", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ranBy: string[] = [];
    const kind: JobKind<{ n: number }, { first: null; second: null }> = {
      name: "stop-test",
      input: z.object({ n: z.number() }),
      steps: [
        {
          name: "first",
          async run() {
            ranBy.push("first");
            await held;
            return null;
          },
        },
        {
          name: "second",
          async run() {
            ranBy.push("second");
            return null;
          },
        },
      ],
      failure: (step) => ({ step, title: "Stopped", message: "Stopped." }),
    };
    const { organization } = await memberByEmail("customer@example.com");
    const logs = captureLogs();
    const job = await runInContext({ requestId: "req-stop" }, () =>
      enqueueJob(kind, { ownerId: organization.id, idempotencyKey: `stop-${Date.now()}`, input: { n: 1 } }),
    );
    // A lease far longer than the test: the job can only move on by being given back.
    const stopping = new JobRunner({ [kind.name]: kind }, 600_000);
    const other = new JobRunner({ [kind.name]: kind }, 600_000);
    try {
      stopping.wake();
      await vi.waitFor(() => expect(ranBy).toEqual(["first"]), { timeout: 10_000, interval: 20 });
      const stopped = stopping.stop();
      release();
      await stopped;
      const [given] = await db.select().from(jobs).where(eq(jobs.id, job.id));
      expect(given).toMatchObject({ status: "queued", leaseHolder: null, attempts: 0, cause: "req-stop" });
      const tookOver = Date.now();
      other.wake();
      await vi.waitFor(
        async () => {
          const [row] = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job.id));
          expect(row.status).toBe("succeeded");
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(Date.now() - tookOver).toBeLessThan(1_000);
      expect(ranBy).toEqual(["first", "second"]);
    } finally {
      release();
      await other.stop();
      logs.restore();
    }
    // Both runs' lines carry the request that queued the job.
    expect(logs.events("job-run").map((line) => [line.cause, line.outcome])).toEqual([
      ["req-stop", "given-back"],
      ["req-stop", "succeeded"],
    ]);
  });
});

describe("liveness and readiness", () => {
  it("keeps liveness to the process, and turns readiness to 503 with the reason: stopping, then the database gone", async () => {
    expect((await healthz()).status).toBe(200);
    const ready = await readyz();
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: "ready", process: "ok", database: "ok", migrations: "ok" },
    ]);
    beginStopping();
    const stopping = await readyz();
    expect([stopping.status, await stopping.json()]).toMatchObject([503, { process: "stopping", database: "ok" }]);

    // This file's own database connection (or pool), closed as a failed one would be.
    await connection.close();
    const gone = await readyz();
    expect([gone.status, await gone.json()]).toMatchObject([503, { database: "not answering", migrations: "unknown" }]);
    const live = await healthz();
    expect([live.status, await live.text(), live.headers.get("Cache-Control")]).toEqual([200, "ok", "no-store"]);
  });
});
