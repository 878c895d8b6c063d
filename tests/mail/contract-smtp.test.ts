import { simpleParser, type AddressObject } from "mailparser";
import { createServer } from "node:net";
import { smtpMailer } from "~/server/mail/smtp/adapter.server";
import { startSmtpServer } from "../support/smtp-server";
import { mailContract, type DeliveredMail } from "./contract";

/** A loopback port nobody listens on: one the system gave out a moment ago and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined) =>
  [field ?? []].flat().flatMap((group) => group.value);

/**
 * The SMTP adapter through nodemailer to a real SMTP server on loopback (STARTTLS, a password), each message it
 * received read back by a real mail parser.
 */
mailContract("smtp adapter", async () => {
  const server = await startSmtpServer();
  return {
    mailer: smtpMailer(server.url),
    copiesOfARepeat: 2,
    delivered: async (messageId) => {
      const parsed = await Promise.all(server.deliveries.map(({ raw }) => simpleParser(raw)));
      return parsed
        .filter((mail) => mail.messageId === messageId)
        .map((mail): DeliveredMail => {
          const [sender] = addressesOf(mail.from);
          return {
            messageId,
            from: { name: sender.name, address: sender.address ?? "" },
            to: addressesOf(mail.to).map(({ address }) => address ?? ""),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: mail.html || "",
          };
        });
    },
    faults: {
      refuseRecipient: (address, { forGood }) => server.refuseRecipient(address, forGood ? 550 : 450),
      unreachable: smtpMailer(`smtp://127.0.0.1:${await closedPort()}`),
      loseNextAnswer: () => server.loseNextAnswer(),
    },
    close: () => server.close(),
  };
});
