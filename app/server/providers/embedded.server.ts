import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import * as schema from "~/server/platform/database/tables.server";
import { lockFor } from "~/server/platform/database/dialect.server";
import type { PortalExecutor, PortalTransaction } from "~/server/platform/database/portal-database.server";
import { ProviderError } from "~/server/platform/provider-errors.server";

/** The portal database or a transaction on it: what the embedded providers and their seed write through. */
export type EmbeddedStore = PortalExecutor;

/** An id in the providers' style, prefixed by what it names (sub_, src_, inv_, tok_...). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString("base64url")}`;
}

/** Providers report times in whole seconds; the embedded ones do the same so both adapters agree. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

const refused = (message: string) => new ProviderError(message, { kind: "final", providerMessage: message });

/**
 * Runs a creating call once per idempotency key, in one transaction: the first run records the id of
 * what it made, a repeat gets that id back without doing anything. The same key on another call is a
 * caller's mistake and is refused, as the real providers do. Every embedded provider shares the one key
 * table (billing_idempotency_keys, named for the first of them); `call` keeps their keys apart.
 *
 * The transaction takes the key's lock before it reads the key, so two requests with one key run one after the
 * other and the second sees what the first made instead of making it again; the key's uniqueness is the
 * backstop. `create` writes only through the transaction it is given.
 */
export async function once(
  store: EmbeddedStore,
  key: string,
  call: string,
  now: Date,
  create: (tx: PortalTransaction) => Promise<string>,
): Promise<string> {
  if (!key) throw refused("An idempotency key is required.");
  const { billingIdempotencyKeys: keys } = schema;
  return store.transaction(async (tx) => {
    await lockFor(tx, `idempotency:${key}`);
    const [seen] = await tx.select().from(keys).where(eq(keys.key, key));
    if (seen) {
      if (seen.call !== call) throw refused("This idempotency key was already used for a different request.");
      return String(seen.result);
    }
    const created = await create(tx);
    await tx.insert(keys).values({ key, call, result: created, createdAt: now });
    return created;
  });
}
