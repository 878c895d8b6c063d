import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Mail through a real SMTP server that this test starts (smtp-server, which offers STARTTLS with its own
 * certificate and asks for a password), read back with a real mail parser. The portal is configured for it
 * before any of its modules load, as it would be by SMTP_URL, MAIL_FROM and PUBLIC_URL.
 */
interface Delivery {
  raw: string;
  secure: boolean;
  user: unknown;
  to: string[];
}

const deliveries: Delivery[] = [];
/** Set to make the server read the next message whole and then drop the connection before answering. */
let loseNextAnswer = false;

const server = new SMTPServer({
  authMethods: ["PLAIN", "LOGIN"],
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === "portal" && auth.password === "mail-secret") callback(null, { user: "portal" });
    else callback(new Error("Invalid username or password"));
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      deliveries.push({
        raw: Buffer.concat(chunks).toString(),
        secure: session.secure,
        user: session.user,
        to: session.envelope.rcptTo.map((recipient) => recipient.address),
      });
      if (loseNextAnswer) {
        loseNextAnswer = false;
        dropConnectionOf(session);
        return;
      }
      callback();
    });
  },
});

/** The server's connection for a session, closed without a word: the client never hears whether its message was taken. */
function dropConnectionOf(session: SMTPServerSession) {
  for (const connection of server.connections as Set<{ id: string; _socket: { destroy(): void } }>) {
    if (connection.id === session.id) connection._socket.destroy();
  }
}

const port = await new Promise<number>((resolve) =>
  server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port)),
);
process.env.SMTP_URL = `smtp://portal:mail-secret@127.0.0.1:${port}/?tls.rejectUnauthorized=false`;
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

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("mail through SMTP", { timeout: 60_000 }, () => {
  it("goes out over STARTTLS, signed in, with both parts, its Message-ID and a link that works", async () => {
    const { user, organization } = await memberByEmail("customer@example.com");
    const link = await issueSignInLink(new Request("http://portal.test/login/link"), user.id, "/hubs");
    const { jobId, messageId } = await queueMail({
      accountId: organization.id,
      to: user.email,
      subject: "Your <sign-in> link & more",
      content: {
        paragraphs: [`Hello <${user.firstName}> & "friends",`],
        action: { label: "Sign in", url: link.url },
        after: ["It works once."],
      },
    });
    await runJobs();
    expect((await findOwnedJob(organization.id, jobId))?.status).toBe("succeeded");
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery).toMatchObject({ secure: true, user: "portal", to: ["customer@example.com"] });

    const mail = await simpleParser(delivery.raw);
    expect(mail.messageId).toBe(messageId);
    expect(messageId).toBe(`<${jobId}@gatekeeper.example>`);
    expect(mail.from?.text).toBe('"GateKeeper Portal" <portal@gatekeeper.example>');
    expect(mail.subject).toBe("Your <sign-in> link & more");
    expect(mail.text).toContain(`Hello <${user.firstName}> & "friends",`);
    expect(mail.text).toContain(`Sign in:\n${link.url}`);
    // Everything interpolated is escaped in the HTML part: the text cannot become markup.
    expect(mail.html).toContain(`Hello &lt;${user.firstName}&gt; &amp; &quot;friends&quot;,`);
    expect(mail.html).not.toContain(`<${user.firstName}>`);

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
    deliveries.length = 0;
    loseNextAnswer = true;
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
    const ids = await Promise.all(deliveries.map(async ({ raw }) => (await simpleParser(raw)).messageId));
    expect(ids).toEqual([messageId, messageId]);
  });

  it("carries a password reset link that works: the new password is set from the parsed message's link", async () => {
    deliveries.length = 0;
    const asked = await respond(async () =>
      forgotAction({
        request: await formRequest("/forgot-password", { email: "technical@example.com" }),
        params: {},
        context: { clientAddress: "192.0.2.200" },
      }),
    );
    expect(asked.status).toBe(200);
    await runJobs();
    expect(deliveries.map((delivery) => delivery.to)).toEqual([["technical@example.com"]]);
    const mail = await simpleParser(deliveries[0].raw);
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
