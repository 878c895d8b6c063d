import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  action as autoRenewAction,
  loader as autoRenewLoader,
} from "~/routes/_portal.licenses.$subscriptionId.auto-renew";
import { action as loginAction } from "~/routes/login";
import { billingFaults, getBillingClock, onBillingEvents } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { providerEventJob } from "~/server/subscriptions/event-consumer.server";
import { subscriptionCopy } from "~/server/subscriptions/copies.server";
import { storeProviderEvents } from "~/server/subscriptions/event-feed.server";
import {
  activity,
  billingClock,
  invoices,
  providerEvents,
  providerSync,
} from "~/server/platform/database/tables.server";
import { addCard, buyLicense, newCustomer, type TestCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { dropRefusal, messagesOf, refuseInserts } from "../support/refused-writes";
import { cookieFrom, formRequest, getRequest, respond } from "../support/requests";

/**
 * An activity entry and the change it records commit together: a failure once the entry is written takes the
 * change back too, and a change applied twice is recorded once. The failure is injected by a trigger that
 * refuses the entry after it was inserted, the last statement of the change's transaction.
 */
let unlisten: () => void;
beforeAll(() => {
  unlisten = onBillingEvents((events) => storeProviderEvents(events, "engine"));
});
afterAll(() => unlisten());
afterEach(async () => {
  await dropRefusal(REFUSAL, "activity");
  await billingFaults.clear();
  await db.delete(billingClock);
  await db.delete(providerSync);
});

const REFUSAL = "activity_refused_for_the_test";
const refuseEntries = (...actions: string[]) =>
  refuseInserts(REFUSAL, "activity", "the log refused the entry", {
    when: `new.action in (${actions.map((action) => `'${action}'`).join(", ")})`,
    timing: "after",
  });

/** What a call that failed on the refused entry threw, with the database's own message. */
const refusal = (failing: Promise<unknown>) =>
  failing.then(
    () => "no failure",
    (error: unknown) => messagesOf(error),
  );

const entriesOf = (organizationId: string, action: string) =>
  db
    .select({ actorName: activity.actorName, summary: activity.summary })
    .from(activity)
    .where(and(eq(activity.organizationId, organizationId), eq(activity.action, action)));

const renewalInvoices = (user: TestCustomer) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.ownerId, user.id), eq(invoices.purpose, "renewal")));

/** The consumer's first step, as the job runs it, for one stored event. */
const applyEvent = (user: TestCustomer, eventId: string) =>
  providerEventJob.steps[0].run({
    id: `apply-${eventId}`,
    ownerId: user.id,
    idempotencyKey: `provider-event:${eventId}`,
    input: { eventId },
    results: {},
    stepKey: `provider-event:${eventId}:apply`,
    forget: () => Promise.resolve(),
    remember: () => Promise.resolve(),
  });

describe("a provider event", () => {
  it("whose entry fails leaves its copies and its applied mark untouched; applied twice it records once", async () => {
    const user = await newCustomer("event-entry");
    await addCard(user);
    const { subscriptionId } = await buyLicense(user, { users: 2 });
    const account = { ownerId: user.id, customerId: user.billingCustomerId };
    const bought = (await subscriptionCopy(account, subscriptionId))!;

    // The term ends: the engine renews and charges; its events are stored, not yet applied.
    await getBillingClock()!.advance(31);
    const stored = await db
      .select({ id: providerEvents.id, type: providerEvents.type })
      .from(providerEvents)
      .where(
        and(
          eq(providerEvents.customerId, user.billingCustomerId),
          inArray(providerEvents.type, ["subscription_renewed", "invoice_paid"]),
          isNull(providerEvents.appliedAt),
        ),
      );
    const renewed = stored.find((event) => event.type === "subscription_renewed")!;
    const paid = stored.find((event) => event.type === "invoice_paid")!;
    expect(renewed && paid).toBeTruthy();

    await refuseEntries("subscription.renewed", "payment.succeeded");
    expect(await refusal(applyEvent(user, renewed.id))).toContain("the log refused the entry");
    expect(await refusal(applyEvent(user, paid.id))).toContain("the log refused the entry");
    // Nothing of either event was kept: not the renewed term, not the renewal's invoice, not the mark.
    expect((await subscriptionCopy(account, subscriptionId))!.currentTermStart).toEqual(bought.currentTermStart);
    expect(await renewalInvoices(user)).toEqual([]);
    expect(
      await db
        .select({ appliedAt: providerEvents.appliedAt })
        .from(providerEvents)
        .where(inArray(providerEvents.id, [renewed.id, paid.id])),
    ).toEqual([{ appliedAt: null }, { appliedAt: null }]);
    expect(await entriesOf(user.id, "subscription.renewed")).toEqual([]);

    // The log takes entries again: the events apply, each with its one entry, however often they are applied.
    await dropRefusal(REFUSAL, "activity");
    for (const round of [1, 2]) {
      await applyEvent(user, renewed.id);
      await applyEvent(user, paid.id);
      expect((await subscriptionCopy(account, subscriptionId))!.currentTermStart, `round ${round}`).toEqual(
        bought.currentTermEnd,
      );
      expect(await renewalInvoices(user)).toMatchObject([{ status: "paid" }]);
      expect(await entriesOf(user.id, "subscription.renewed")).toEqual([
        { actorName: "GateKeeper", summary: `Subscription ${subscriptionId} renewed for another term.` },
      ]);
    }
    await runJobs();
    expect(await entriesOf(user.id, "subscription.renewed")).toHaveLength(1);
  });
});

describe("auto-renew turned off", () => {
  type Loader = (args: LoaderFunctionArgs) => unknown;
  type Action = (args: ActionFunctionArgs) => unknown;

  async function signIn(user: TestCustomer) {
    const request = await formRequest("/login", { email: user.user.email, password: "GateKeeper-demo-1" });
    return cookieFrom(
      (await respond(() => loginAction({ request, params: {}, context: {} }))).headers.get("Set-Cookie"),
    );
  }

  async function turnOff(subscriptionId: string, cookie: string) {
    const path = `/licenses/${subscriptionId}/auto-renew`;
    const params = { subscriptionId };
    const dialog = await (
      await respond(async () => (autoRenewLoader as Loader)({ request: getRequest(path, cookie), params, context: {} }))
    ).json();
    const request = await formRequest(path, { intent: "off", idempotency_key: dialog.key }, { cookie });
    return respond(async () => (autoRenewAction as Action)({ request, params, context: {} }));
  }

  it("keeps the portal's copy of the change and its entry together: a refused entry leaves the copy as it was", async () => {
    const user = await newCustomer("auto-renew-entry");
    await addCard(user);
    const { subscriptionId } = await buyLicense(user, { users: 2 });
    const account = { ownerId: user.id, customerId: user.billingCustomerId };
    const cookie = await signIn(user);

    await refuseEntries("license.auto_renew_changed");
    expect(await refusal(turnOff(subscriptionId, cookie))).toContain("the log refused the entry");
    expect((await subscriptionCopy(account, subscriptionId))!.status).toBe("active");
    expect(await entriesOf(user.id, "license.auto_renew_changed")).toEqual([]);

    // Posted again (the provider's change is harmless to repeat), the copy and the entry are kept together.
    await dropRefusal(REFUSAL, "activity");
    expect((await turnOff(subscriptionId, cookie)).headers.get("Location")).toBe("/licenses");
    expect((await subscriptionCopy(account, subscriptionId))!.status).toBe("non_renewing");
    expect(await entriesOf(user.id, "license.auto_renew_changed")).toHaveLength(1);
  });
});
