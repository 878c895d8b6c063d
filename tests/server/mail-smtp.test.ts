import { simpleParser } from "mailparser";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "../support/smtp-server";

/**
 * Mail through the portal configured for a real SMTP server that this test starts (tests/support/smtp-server),
 * read back with a real mail parser: the send job through SMTP_URL, and the links in its messages. What the SMTP
 * adapter delivers and how it fails is the mail contract's (tests/mail). The portal is configured before any of
 * its modules load, as it would be by SMTP_URL, MAIL_FROM and PUBLIC_URL.
 */
const smtp = await startSmtpServer();
process.env.SMTP_URL = smtp.url;
process.env.MAIL_FROM = "GateKeeper Portal <portal@gatekeeper.example>";
process.env.PUBLIC_URL = "http://portal.test";

const { queueMail } = await import("~/server/mail/index.server");
const { issueSignInLink } = await import("~/server/accounts/sign-in-links.server");
const { memberByEmail } = await import("../support/members");
const { findOwnedJob } = await import("~/server/platform/jobs/runner.server");
const { action: linkAction } = await import("~/routes/login_.link_.$token");
const { action: forgotAction } = await import("~/routes/forgot-password");
const { action: resetAction } = await import("~/routes/reset-password.$token");
const { runJobs } = await import("../support/jobs");
const { formRequest, respond } = await import("../support/requests");

afterAll(() => smtp.close());

describe("mail through SMTP", { timeout: 60_000 }, () => {
  it("goes out through SMTP_URL over STARTTLS, signed in, with the job's Message-ID and a link that works", async () => {
    const { user, organization } = await memberByEmail("customer@example.com");
    const link = await issueSignInLink("http://portal.test", user.id, "/hubs");
    const { jobId, messageId } = await queueMail({
      accountId: organization.id,
      to: user.email,
      subject: "Your sign-in link",
      content: { paragraphs: [`Hello ${user.firstName},`], action: { label: "Sign in", url: link.url } },
    });
    await runJobs();
    expect((await findOwnedJob(organization.id, jobId))?.status).toBe("succeeded");
    expect(smtp.deliveries).toHaveLength(1);
    const [delivery] = smtp.deliveries;
    expect(delivery).toMatchObject({ secure: true, user: "portal", to: ["customer@example.com"] });

    const mail = await simpleParser(delivery.raw);
    expect(mail.messageId).toBe(messageId);
    expect(messageId).toBe(`<${jobId}@gatekeeper.example>`);

    // The links of both parts lead to the same place, and it signs the customer in.
    const hrefs = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    expect(hrefs).toEqual([link.url, link.url]);
    const token = new URL(hrefs[0]).pathname.split("/").at(-1) ?? "";
    const signedIn = await respond(async () =>
      linkAction({ request: await formRequest(`/login/link/${token}`, {}), params: { token }, context: {} }),
    );
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/hubs");
  });

  it("sends a message whose answer was lost again as the same message: one Message-ID, and the job done", async () => {
    const { user, organization } = await memberByEmail("distributor@example.com");
    smtp.deliveries.length = 0;
    smtp.loseNextAnswer();
    const { jobId, messageId } = await queueMail({
      accountId: organization.id,
      to: user.email,
      subject: "Lost answer",
      content: { paragraphs: ["Once."] },
    });
    await runJobs();
    const job = await findOwnedJob(organization.id, jobId);
    expect(job?.status).toBe("succeeded");
    expect(job?.attempts).toBe(2);
    const ids = await Promise.all(smtp.deliveries.map(async ({ raw }) => (await simpleParser(raw)).messageId));
    expect(ids).toEqual([messageId, messageId]);
  });

  it("carries a password reset link that works: the new password is set from the parsed message's link", async () => {
    smtp.deliveries.length = 0;
    const asked = await respond(async () =>
      forgotAction({
        request: await formRequest("/forgot-password", { email: "technical@example.com" }),
        params: {},
        context: { clientAddress: "192.0.2.200" },
      }),
    );
    expect(asked.status).toBe(200);
    await runJobs();
    expect(smtp.deliveries.map((delivery) => delivery.to)).toEqual([["technical@example.com"]]);
    const mail = await simpleParser(smtp.deliveries[0].raw);
    expect(mail.subject).toBe("Set a new password for the GateKeeper Portal");
    const [href] = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map(([, link]) => link);
    expect(mail.text).toContain(href);
    expect(href).toMatch(/^http:\/\/portal\.test\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const token = new URL(href).pathname.split("/").at(-1) ?? "";
    const password = "Through-smtp-22";
    const reset = await respond(async () =>
      resetAction({
        request: await formRequest(`/reset-password/${token}`, { new_password: password, confirm_password: password }),
        params: { token },
        context: {},
      }),
    );
    expect(reset.headers.get("Location")).toBe("/login");
  });
});
