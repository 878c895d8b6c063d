import { describe, expect, it } from "vitest";
import { refusal } from "~/domain/access-policy";
import { subjectOf } from "~/server/accounts/access.server";
import { loader } from "~/routes/_portal.account_.invoices.payments.$jobId";
import { payNow } from "~/server/orders/index.server";
import { enqueueJob } from "~/server/platform/jobs/runner.server";
import { createAccount, memberByEmail } from "../support/members";
import { getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/**
 * Pay now's progress page shows the payment's amount and its invoice: it is read by the roles that pay invoices,
 * checked by its own loader (the invoices pages around it check theirs), not by every member of the organization.
 */
describe("the progress page of a payment", () => {
  it("is 403 for a Viewer and a Technical contact, with the policy's reason, and shows the amount to the Owner", async () => {
    const owner = await memberByEmail("customer@example.com");
    await createAccount("val-viewer@northwind.example", owner.user.passwordHash, {
      organizationId: owner.organization.id,
      role: "viewer",
    });
    const job = await enqueueJob(payNow, {
      ownerId: owner.organization.id,
      idempotencyKey: "payment-progress-read",
      input: { customerId: "cust_demo_customer", invoiceId: "1", paymentSourceId: "pm_demo", amount: 4_800 },
    });
    const show = async (email: string) =>
      respond(async () =>
        loader({
          request: getRequest(`/account/invoices/payments/${job.id}`, await demoCookie(email)),
          params: { jobId: job.id },
          context: {},
        }),
      );

    for (const email of ["val-viewer@northwind.example", "technical@example.com"]) {
      const refused = await show(email);
      expect(refused.status, email).toBe(403);
      const member = await memberByEmail(email);
      expect(await refused.json()).toEqual({ message: refusal(subjectOf(member.user, member), "invoices.pay") });
    }
    const shown = await show("customer@example.com");
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ amount: 4_800, payUrl: "/account/invoices/1/pay" });
  });
});
