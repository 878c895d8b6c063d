import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeMail } from "~/server/mail/compose.server";
import type { Mailer, OutgoingMail } from "~/server/mail/index.server";
import { ProviderError } from "~/server/platform/provider-errors.server";

/**
 * The mail port's behaviour contract, run against every adapter: `send` delivers what it is given, a repeat with
 * the same Message-ID reads as the same message, and failures come as the port's kinds. Each adapter's test file
 * reads back what its adapter delivered (the outbox's rows, or what a real SMTP server received, parsed).
 */
export interface DeliveredMail {
  messageId: string;
  from: { name: string; address: string };
  /** The recipients' addresses, as the message names them. */
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface ContractSubject {
  mailer: Mailer;
  /** Every copy delivered with this Message-ID, oldest first. */
  delivered(messageId: string): Promise<DeliveredMail[]>;
  /**
   * How many copies a send repeated with the same Message-ID leaves: the outbox keeps one row; SMTP cannot ask
   * whether the server kept the first, so it hands over a second, known to mail systems by its Message-ID.
   */
  copiesOfARepeat: 1 | 2;
  /** Ways the mail server fails; none for an adapter that has no server (the outbox is the portal's own table). */
  faults?: {
    /** The server refuses this recipient: for good, or for now (a full mailbox, greylisting). */
    refuseRecipient(address: string, refusal: { forGood: boolean }): void;
    /** The same adapter pointed at a server nobody answers at. */
    unreachable: Mailer;
    /** The server takes the next message whole, and its answer is lost on the way back. */
    loseNextAnswer(): void;
  };
  close?: () => Promise<void>;
}

const SENDER = { name: "GateKeeper Portal", address: "portal@gatekeeper.example" };

/**
 * A message as the portal writes them (compose.server), with what mail transports bend: non-ASCII text, markup
 * characters, a subject longer than a header line, a link longer than an SMTP line (998 characters), and the
 * signature separator's trailing space.
 */
function message(to = "erin@example.org"): OutgoingMail {
  const subject = "Zoë's sign-in link & <Hubs>: valid for one hour, once, for the GateKeeper Portal — nowhere else";
  return {
    messageId: `<${randomUUID()}@gatekeeper.example>`,
    from: `${SENDER.name} <${SENDER.address}>`,
    to,
    subject,
    ...composeMail(subject, {
      paragraphs: ['Hello Zoë <Erin> & "friends",', "Someone asked to sign in to your account."],
      action: { label: "Sign in", url: `https://portal.example.com/login/link/${"x".repeat(1100)}?next=/hubs&a=1` },
      after: ["The link works once, for one hour."],
    }),
  };
}

/** The message as its reader gets it. */
const asDelivered = ({ messageId, to, subject, text, html }: OutgoingMail): DeliveredMail => ({
  messageId,
  from: SENDER,
  to: [to],
  subject,
  text,
  html,
});

/** What a failed send threw. */
const failureOf = (sending: Promise<void>) =>
  sending.then(
    () => {
      throw new Error("The send succeeded.");
    },
    (error: unknown) => error,
  );

const NO_SERVER = "the adapter has no mail server that could refuse or go away";

export function mailContract(adapter: string, start: () => Promise<ContractSubject>) {
  describe(`mail contract: ${adapter}`, () => {
    let subject: ContractSubject;
    let mailer: Mailer;

    beforeAll(async () => {
      subject = await start();
      mailer = subject.mailer;
    });
    afterAll(async () => {
      await subject.close?.();
    });

    it("delivers a message as given: sender, recipient, subject, both parts and its Message-ID", async () => {
      const mail = message();
      await mailer.send(mail);
      expect(await subject.delivered(mail.messageId)).toEqual([asDelivered(mail)]);
    });

    it("delivers each message on its own, by its Message-ID", async () => {
      const [first, second] = [message("first@example.org"), message("second@example.org")];
      await mailer.send(first);
      await mailer.send(second);
      expect(await subject.delivered(first.messageId)).toEqual([asDelivered(first)]);
      expect(await subject.delivered(second.messageId)).toEqual([asDelivered(second)]);
    });

    it("takes a send repeated with the same Message-ID without an error, and every copy is that message", async () => {
      const mail = message();
      await mailer.send(mail);
      await mailer.send(mail);
      expect(await subject.delivered(mail.messageId)).toEqual(
        Array.from({ length: subject.copiesOfARepeat }, () => asDelivered(mail)),
      );
    });

    describe("failures", () => {
      it("a recipient refused for good is final, and nothing is delivered", async (context) => {
        const faults = subject.faults ?? context.skip(NO_SERVER);
        const mail = message("gone@example.org");
        faults.refuseRecipient(mail.to, { forGood: true });
        const error = await failureOf(mailer.send(mail));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ kind: "final" });
        expect(await subject.delivered(mail.messageId)).toEqual([]);
      });

      it("a recipient refused for now is retryable, and nothing is delivered", async (context) => {
        const faults = subject.faults ?? context.skip(NO_SERVER);
        const mail = message("full@example.org");
        faults.refuseRecipient(mail.to, { forGood: false });
        const error = await failureOf(mailer.send(mail));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ kind: "retryable" });
        expect(await subject.delivered(mail.messageId)).toEqual([]);
      });

      it("a server that cannot be reached is retryable", async (context) => {
        const faults = subject.faults ?? context.skip(NO_SERVER);
        const error = await failureOf(faults.unreachable.send(message()));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ kind: "retryable" });
      });

      it("a message taken whole whose answer is lost is unknown: it may have been delivered", async (context) => {
        const faults = subject.faults ?? context.skip(NO_SERVER);
        const mail = message();
        faults.loseNextAnswer();
        const error = await failureOf(mailer.send(mail));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ kind: "unknown" });
        expect(await subject.delivered(mail.messageId)).toEqual([asDelivered(mail)]);
      });
    });
  });
}
