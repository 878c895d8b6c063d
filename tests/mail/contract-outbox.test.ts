import { eq } from "drizzle-orm";
import addressparser from "nodemailer/lib/addressparser";
import { outboxMailer } from "~/server/mail/outbox/adapter.server";
import { db } from "~/server/platform/database/db.server";
import { outbox } from "~/server/platform/database/tables.server";
import { mailContract } from "./contract";

const addresses = (field: string) => addressparser(field, { flatten: true });

/** The outbox adapter, read back from its table: what an administrator reads at /admin/outbox. */
mailContract("outbox", async () => ({
  mailer: outboxMailer,
  copiesOfARepeat: 1,
  delivered: async (messageId) => {
    const rows = await db.select().from(outbox).where(eq(outbox.messageId, messageId)).orderBy(outbox.id);
    return rows.map(({ from, to, subject, text, html }) => {
      const [sender] = addresses(from);
      return {
        messageId,
        from: { name: sender.name, address: sender.address },
        to: addresses(to).map(({ address }) => address),
        subject,
        text,
        html,
      };
    });
  },
}));
