import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, outbox } from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { parseEnv } from "~/server/platform/config/env.server";
import { findOwnedJob } from "~/server/platform/jobs/runner.server";
import { composeMail } from "~/server/mail/compose.server";
import { getMailer, outboxPage, queueMail } from "~/server/mail/index.server";
import { outgoingMail, type MailInput } from "~/server/mail/send-job.server";
import { smtpFailure } from "~/server/mail/smtp/adapter.server";
import { memberByEmail } from "../support/members";
import { runJobs } from "../support/jobs";

/** The demo customer's organization: the mail job is its own. */
const customer = async () => (await memberByEmail("customer@example.com")).organization;

const kept = (messageId: string) => db.select().from(outbox).where(eq(outbox.messageId, messageId));

describe("a message's two parts", () => {
  it("say the same, with everything escaped in the HTML part and the link as a button and as its address", () => {
    const { text, html } = composeMail("A <subject>", {
      paragraphs: ['Hello <img src=x onerror=alert(1)> & "you",'],
      action: { label: "Open <it>", url: "https://portal.example.com/login/link/a?b=1&c=2" },
      after: ["Bye."],
    });
    expect(text).toBe(
      'Hello <img src=x onerror=alert(1)> & "you",\n\nOpen <it>:\nhttps://portal.example.com/login/link/a?b=1&c=2\n\nBye.\n\n-- \nGateKeeper Portal',
    );
    expect(html).toContain("Hello &lt;img src=x onerror=alert(1)&gt; &amp; &quot;you&quot;,");
    expect(html).toContain('href="https://portal.example.com/login/link/a?b=1&amp;c=2"');
    expect(html).toContain(">Open &lt;it&gt;</a>");
    expect(html).toContain("<title>A &lt;subject&gt;</title>");
    expect(html).not.toMatch(/<img|<it>/);
  });

  it("take only a web address as a link", () => {
    expect(() => composeMail("x", { paragraphs: [], action: { label: "Go", url: "javascript:alert(1)" } })).toThrow(
      /Not a web address/,
    );
  });
});

describe("mail without SMTP_URL", () => {
  it("is kept in the outbox by its job, newest first, with a Message-ID derived from the job", async () => {
    const accountId = (await customer()).id;
    const first = await queueMail({
      accountId,
      to: "a@example.com",
      subject: "First",
      content: { paragraphs: ["1"] },
    });
    const second = await queueMail({
      accountId,
      to: "b@example.com",
      subject: "Second",
      content: { paragraphs: ["2"] },
    });
    // Queued, not yet sent: the request that queued it did not wait for a mail server.
    expect(await kept(first.messageId)).toHaveLength(0);
    await runJobs();
    expect(first.messageId).toBe(`<${first.jobId}@localhost>`);
    const { total, messages } = await outboxPage(1, 10);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(messages.slice(0, 2).map((message) => message.subject)).toEqual(["Second", "First"]);
    expect(messages[0]).toMatchObject({
      messageId: second.messageId,
      from: "GateKeeper Portal <portal@localhost>",
      to: "b@example.com",
      text: expect.stringContaining("2"),
      html: expect.stringContaining("<p"),
    });
  });

  it("is kept once when its job runs again after the answer was lost", async () => {
    const accountId = (await customer()).id;
    const { jobId, messageId } = await queueMail({
      accountId,
      to: "once@example.com",
      subject: "Once",
      content: { paragraphs: ["Only once."] },
    });
    // A runner took the job and sent the message, then died before it could record the send.
    const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId));
    await getMailer().send(outgoingMail(jobId, job?.input as MailInput));
    await db
      .update(jobs)
      .set({
        status: "running",
        leaseHolder: "a runner that died",
        leaseUntil: new Date(0),
        steps: { send: { status: "started", refusals: 0 } },
      })
      .where(eq(jobs.id, jobId));
    await runJobs();
    expect((await findOwnedJob(accountId, jobId))?.status).toBe("succeeded");
    expect(await kept(messageId)).toHaveLength(1);
  });

  it("is queued once per key", async () => {
    const mail = {
      accountId: (await customer()).id,
      to: "k@example.com",
      subject: "Key",
      content: { paragraphs: ["k"] },
    };
    expect((await queueMail({ ...mail, key: "same" })).jobId).toBe((await queueMail({ ...mail, key: "same" })).jobId);
    expect((await queueMail(mail)).jobId).not.toBe((await queueMail(mail)).jobId);
  });
});

/** What the mail contract (tests/mail) does not stage on its SMTP server: a wrong password, a server gone silent. */
describe("SMTP failures", () => {
  it.each([
    [{ code: "EAUTH", responseCode: 535 }, "final"],
    [{ code: "ETIMEDOUT" }, "unknown"],
  ])("%j is %s", (failure, kind) => {
    expect(smtpFailure(Object.assign(new Error("failed"), failure)).kind).toBe(kind);
  });
});

describe("mail configuration", () => {
  const base = { SEED_DEMO: "true" };
  it("needs MAIL_FROM and PUBLIC_URL once mail leaves the portal, and checks each", () => {
    const smtp = { ...base, SMTP_URL: "smtp://user:pass@mail.example.com:587" };
    expect(() => parseEnv(smtp)).toThrow(/^MAIL_FROM is required when SMTP_URL is set$/);
    expect(() => parseEnv({ ...smtp, MAIL_FROM: "portal@example.com" })).toThrow(
      /^PUBLIC_URL is required when SMTP_URL is set$/,
    );
    const env = parseEnv({
      ...smtp,
      MAIL_FROM: "GateKeeper Portal <portal@example.com>",
      PUBLIC_URL: "https://portal.example.com/",
    });
    expect(env).toMatchObject({
      MAIL_FROM: "GateKeeper Portal <portal@example.com>",
      PUBLIC_URL: "https://portal.example.com",
    });
    expect(() => parseEnv({ ...base, SMTP_URL: "http://mail.example.com" })).toThrow(/^SMTP_URL must start with smtp/);
    expect(() => parseEnv({ ...base, MAIL_FROM: "two@example.com, addresses@example.com" })).toThrow(
      /^MAIL_FROM must be one address/,
    );
    expect(() => parseEnv({ ...base, PUBLIC_URL: "https://portal.example.com/portal" })).toThrow(
      /^PUBLIC_URL must be the portal's public origin/,
    );
    expect(parseEnv(base).MAIL_FROM).toBe("GateKeeper Portal <portal@localhost>");
  });
});
