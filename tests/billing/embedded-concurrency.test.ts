import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import { injectBillingFault } from "~/server/billing/local/faults.server";
import { DEMO_BILLING } from "~/server/billing/local/seed.server";
import type { Invoice } from "~/server/billing/port.server";
import {
  openDatabase,
  type PortalConnection,
  type PortalTransaction,
} from "~/server/platform/database/portal-database.server";
import {
  billingCustomers,
  billingIdempotencyKeys,
  billingInvoices,
  cardTokens,
  engine,
} from "~/server/platform/database/tables.server";
import { db } from "~/server/platform/database/db.server";
import { cardFromToken, storeToken } from "~/server/providers/card-vault.server";
import { once } from "~/server/providers/embedded.server";

/**
 * The embedded providers' reads followed by writes, made by two portal instances at once. On PostgreSQL the second
 * instance is a pool of its own on the same database (the test file's pool has one connection), so the two really
 * run side by side; on SQLite it is the same connection, whose transactions take turns, as they do across
 * processes.
 */
let second: PortalConnection | null = null;
const other = () => (second ? second.db : db);

beforeAll(() => {
  if (engine === "postgres") second = openDatabase(process.env.DATABASE_URL!, { poolMax: 4 });
});
afterAll(async () => {
  await second?.close();
}, 30_000);

const VISA = {
  brand: "visa",
  last4: "4242",
  expiryMonth: 12,
  expiryYear: 2034,
  firstName: "Two",
  lastName: "Instances",
};

describe("an idempotency key used by two instances at once", () => {
  it("makes one thing, and both get its id", async () => {
    for (let round = 0; round < 5; round += 1) {
      const key = `both:${randomUUID()}`;
      const now = new Date();
      // What the call makes takes a while, so that without the key's lock both would find the key unused.
      const slowly = async (tx: PortalTransaction) => {
        await sleep(30);
        return storeToken(tx, VISA, now);
      };
      const ids = await Promise.all([
        once(db, key, "cards.temporaryToken", now, slowly),
        once(other(), key, "cards.temporaryToken", now, slowly),
      ]);
      expect(ids[1]).toBe(ids[0]);
      expect(await db.select().from(cardTokens).where(eq(cardTokens.id, ids[0]))).toHaveLength(1);
      expect(await db.select().from(billingIdempotencyKeys).where(eq(billingIdempotencyKeys.key, key))).toHaveLength(1);
    }
    const made = await db.select().from(cardTokens).where(eq(cardTokens.firstName, "Two"));
    expect(made).toHaveLength(5);
  });
});

describe("a one-time card token spent by two instances at once", () => {
  it("is spent by one of them only", async () => {
    for (let round = 0; round < 5; round += 1) {
      const token = await storeToken(db, VISA, new Date());
      const saved = await Promise.all([
        cardFromToken(db, token, "cus_local_first", new Date()),
        cardFromToken(other(), token, "cus_local_second", new Date()),
      ]);
      expect(saved.filter((card) => card !== null)).toHaveLength(1);
    }
  });
});

describe("one customer's credit balance moved by two instances at once", () => {
  it("loses no update: each invoice takes its credits off the balance the other left", async () => {
    const { customerId, paymentSourceId } = DEMO_BILLING;
    const first = createLocalBilling({ store: db });
    const secondEngine = createLocalBilling({ store: other() });
    const balance = 1_000_000;
    await db.update(billingCustomers).set({ creditBalance: balance }).where(eq(billingCustomers.id, customerId));
    const order = { customerId, paymentSourceId, hardware: [{ id: "usb-sensor", quantity: 1 }] };
    const invoices: Invoice[] = [];
    for (let round = 0; round < 4; round += 1) {
      invoices.push(
        ...(await Promise.all([
          first.createHardwareInvoice(order, `credits:${randomUUID()}`),
          secondEngine.createHardwareInvoice(order, `credits:${randomUUID()}`),
        ])),
      );
    }
    // Paid from the credits, each under a number of its own.
    expect(invoices.every((invoice) => invoice.creditsApplied > 0 && invoice.amountDue === 0)).toBe(true);
    expect(new Set(invoices.map((invoice) => invoice.number)).size).toBe(invoices.length);
    const applied = invoices.reduce((sum, invoice) => sum + invoice.creditsApplied, 0);
    const [customer] = await db.select().from(billingCustomers).where(eq(billingCustomers.id, customerId));
    expect(customer.creditBalance).toBe(balance - applied);
    const kept = await db.select().from(billingInvoices).where(eq(billingInvoices.customerId, customerId));
    expect(kept.filter((row) => invoices.some((invoice) => invoice.id === row.id))).toHaveLength(invoices.length);
  });
});

describe("a fault armed once, met by two instances at once", () => {
  it("fails one call only", async () => {
    const first = createLocalBilling({ store: db });
    const secondEngine = createLocalBilling({ store: other() });
    for (let round = 0; round < 5; round += 1) {
      await injectBillingFault(db, "listPlans", { message: "Once." });
      const results = await Promise.allSettled([first.listPlans(), secondEngine.listPlans()]);
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    }
  });
});
