import { describe, expect, it } from "vitest";
import { loader as htmlPartLoader } from "~/routes/admin.outbox.$messageId.html";
import { loader as outboxLoader } from "~/routes/_portal.admin.outbox";
import { action as loginAction } from "~/routes/login";
import { outboxPage, queueMail } from "~/server/mail/index.server";
import { memberByEmail } from "../support/members";
import { runJobs } from "../support/jobs";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

async function signedIn(email: string): Promise<string> {
  const request = await formRequest("/login", { email, password: "GateKeeper-demo-1" });
  const response = await respond(() => loginAction({ request, params: {}, context: {} }));
  return cookieFrom(response.headers.get("Set-Cookie"));
}

const open = (path: string, cookie: string, params: Record<string, string> = {}) =>
  respond(async () =>
    (path.endsWith("/html") ? htmlPartLoader : outboxLoader)({
      request: getRequest(path, cookie),
      params,
      context: {},
    }),
  );

describe("the outbox page", { timeout: 60_000 }, () => {
  it("shows an administrator the kept mail newest first, ten a page, and each message's HTML part under a policy that runs nothing", async () => {
    const customer = (await memberByEmail("customer@example.com")).organization;
    for (let n = 1; n <= 12; n += 1) {
      await queueMail({
        accountId: customer.id,
        to: "customer@example.com",
        subject: `Message ${n}`,
        content: { paragraphs: [`Number ${n}`], action: { label: "Open", url: `http://portal.test/licenses?n=${n}` } },
      });
    }
    await runJobs();
    const admin = await signedIn("admin@example.com");
    const first = await (await open("/admin/outbox", admin)).json();
    expect(first).toMatchObject({ page: 1, pages: 2, total: 12 });
    expect(first.messages.map((message: { subject: string }) => message.subject).slice(0, 2)).toEqual([
      "Message 12",
      "Message 11",
    ]);
    expect(first.messages).toHaveLength(10);
    expect(first.messages[0].text).toContain("http://portal.test/licenses?n=12");
    const second = await (await open("/admin/outbox?page=2", admin)).json();
    expect(second.messages.map((message: { subject: string }) => message.subject)).toEqual(["Message 2", "Message 1"]);
    expect((await open("/admin/outbox?page=9", admin)).headers.get("Location")).toBe("/admin/outbox?page=2");

    const [newest] = (await outboxPage(1, 1)).messages;
    const html = await open(`/admin/outbox/${newest.id}/html`, admin, { messageId: String(newest.id) });
    expect(html.status).toBe(200);
    expect(html.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none';.*sandbox$/);
    expect(await html.text()).toBe(newest.html);
    expect((await open("/admin/outbox/999999/html", admin, { messageId: "999999" })).status).toBe(404);
  });

  it("is for GateKeeper administrators only", async () => {
    const customer = await signedIn("customer@example.com");
    expect((await open("/admin/outbox", customer)).status).toBe(403);
    const [newest] = (await outboxPage(1, 1)).messages;
    expect((await open(`/admin/outbox/${newest.id}/html`, customer, { messageId: String(newest.id) })).status).toBe(
      403,
    );
    expect((await open("/admin/outbox", "")).status).toBe(302);
  });
});
