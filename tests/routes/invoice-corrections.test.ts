import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as invoicesLoader } from "~/routes/_portal.account_.invoices";
import {
  action as correctAction,
  loader as correctLoader,
} from "~/routes/_portal.account_.invoices.$invoiceId.correct";
import { loader as pdfLoader } from "~/routes/_portal.account_.invoices.$invoiceId.pdf";
import { action as loginAction } from "~/routes/login";
import { onBillingEvents } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { activity, invoices } from "~/server/platform/database/tables.server";
import { storeProviderEvents } from "~/server/subscriptions/event-feed.server";
import { toastStorage } from "~/server/accounts/session.server";
import { addCard, buyLicense, newCustomer, type TestCustomer } from "../support/accounts";
import { runJobs } from "../support/jobs";
import { pdfText } from "../support/pdf-text";
import { cookieFrom, formRequest, openRoute as load, postRoute as post, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/**
 * Correcting an issued invoice through the drawer's loader and action: a new revision under the same number, the
 * earlier one downloadable, the correction in the activity log and on the invoices page, once per form; a new
 * country refused with the way to a credit note; only for the billing roles.
 */
let unlisten: () => void;
beforeAll(() => {
  unlisten = onBillingEvents((events) => storeProviderEvents(events, "engine"));
});
afterAll(() => unlisten());

async function signIn(user: TestCustomer) {
  const request = await formRequest("/login", { email: user.user.email, password: "GateKeeper-demo-1" });
  return cookieFrom((await respond(() => loginAction({ request, params: {}, context: {} }))).headers.get("Set-Cookie"));
}

async function toastOf(response: Response) {
  const session = await toastStorage().getSession(response.headers.get("Set-Cookie"));
  return session.get("toast") as { kind: string; message: string } | undefined;
}

async function pdfOf(invoiceId: string, cookie: string, query = "") {
  const response = await load(pdfLoader, `/account/invoices/${invoiceId}/pdf${query}`, cookie, { invoiceId });
  return response.status === 200 ? pdfText(new Uint8Array(await response.arrayBuffer())) : response.status;
}

/** A customer with a license bought (its first invoice), signed in; the correct drawer's form for that invoice. */
async function customerWithInvoice(label: string) {
  const user = await newCustomer(label);
  await addCard(user);
  await buyLicense(user);
  await runJobs();
  const [invoice] = await db.select().from(invoices).where(eq(invoices.ownerId, user.id));
  const cookie = await signIn(user);
  const path = `/account/invoices/${invoice.id}/correct`;
  const page = await (await load(correctLoader, path, cookie, { invoiceId: invoice.id })).json();
  return { user, invoice, cookie, path, page };
}

const formOf = (
  page: { defaults: Record<string, string>; idempotencyKey: string },
  changes: Record<string, string>,
) => ({
  ...page.defaults,
  idempotency_key: page.idempotencyKey,
  ...changes,
});

describe("correcting an invoice", () => {
  it("starts from the buyer as the document names them", async () => {
    const { page, invoice } = await customerWithInvoice("correct-form");
    expect(page.invoice).toMatchObject({ id: invoice.id, number: invoice.number, revision: 1 });
    expect(page.defaults).toMatchObject({ first_name: "Robin", line1: "1 Main Street", country: "US", revision: "1" });
    expect(page.country).toEqual({ code: "US", name: "United States of America" });
    expect(page.earlier).toEqual([]);
  });

  it("issues revision 2 under the same number, once per form, keeps revision 1 and logs who changed what", async () => {
    const { user, invoice, cookie, path, page } = await customerWithInvoice("correct-twice");
    const fields = formOf(page, { line1: "2 Elm Street", company: "Renewal Partners LLC", po_number: "PO-42" });
    const params = { invoiceId: invoice.id };
    const first = await post(correctAction, path, fields, cookie, params);
    const second = await post(correctAction, path, fields, cookie, params);
    expect(first.status).toBe(302);
    expect(await toastOf(first)).toEqual({
      kind: "success",
      message: `Invoice ${invoice.number} corrected: revision 2 replaces the earlier document, which stays downloadable.`,
    });
    expect(second.status).toBe(302);
    const [copy] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(copy.revision).toBe(2);
    const entries = await db
      .select()
      .from(activity)
      .where(and(eq(activity.organizationId, user.id), eq(activity.action, "invoice.corrected")))
      .orderBy(desc(activity.id));
    expect(entries).toHaveLength(1);
    expect(entries[0].summary).toContain(`Corrected invoice ${invoice.number} (revision 2)`);
    expect(entries[0].summary).toContain('PO number "" → "PO-42"');
    expect(entries[0].summary).toContain("2 Elm Street");

    const current = await pdfOf(invoice.id, cookie);
    expect(current).toContain("Revision 2, replaces the document of");
    expect(current).toContain("Renewal Partners LLC");
    expect(current).toContain("PO number:   PO-42");
    const earlier = await pdfOf(invoice.id, cookie, "?revision=1");
    expect(earlier).toContain("1 Main Street");
    expect(earlier).not.toContain("Revision 2");
    expect(await pdfOf(invoice.id, cookie, "?revision=7")).toBe(404);
    expect(await pdfOf(invoice.id, cookie, "?revision=one")).toBe(404);

    const list = await (await load(invoicesLoader, "/account/invoices", cookie, {})).json();
    expect(list.invoices.find((row: { id: string }) => row.id === invoice.id)).toMatchObject({
      revision: 2,
      correctUrl: `/account/invoices/${invoice.id}/correct`,
    });
    const again = await (await load(correctLoader, path, cookie, params)).json();
    expect(again.earlier).toMatchObject([{ revision: 1, pdfUrl: `/account/invoices/${invoice.id}/pdf?revision=1` }]);
  });

  it("tells a form opened before another correction, instead of correcting twice", async () => {
    const { invoice, cookie, path, page } = await customerWithInvoice("correct-stale");
    const params = { invoiceId: invoice.id };
    await post(correctAction, path, formOf(page, { line1: "3 Oak Street" }), cookie, params);
    const stale = await post(
      correctAction,
      path,
      formOf({ ...page, idempotencyKey: crypto.randomUUID() }, { line1: "4 Pine Street" }),
      cookie,
      params,
    );
    expect(await toastOf(stale)).toMatchObject({ kind: "info" });
    const [copy] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(copy.revision).toBe(2);
  });

  it("refuses a new country with the way to a credit note, keeping what was typed", async () => {
    const { invoice, cookie, path, page } = await customerWithInvoice("correct-country");
    const response = await post(correctAction, path, formOf(page, { country: "DE", line1: "Domplatz 1" }), cookie, {
      invoiceId: invoice.id,
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.formError).toContain("has to be credited and issued again");
    expect(body.formError).toContain("/support");
    expect(body.repopulateFields).toMatchObject({ line1: "Domplatz 1" });
  });

  it("refuses a malformed VAT number at the field", async () => {
    const { invoice, cookie, path, page } = await customerWithInvoice("correct-vat");
    const response = await post(correctAction, path, formOf(page, { vat_number: "12345" }), cookie, {
      invoiceId: invoice.id,
    });
    expect((await response.json()).fieldErrors).toEqual({
      vat_number: "VAT numbers are only kept for customers in the EU, the United Kingdom, Switzerland and Norway.",
    });
  });

  it("is only for the billing roles, and only of the organization's own invoices", async () => {
    const { invoice, path } = await customerWithInvoice("correct-roles");
    const technical = await load(correctLoader, path, await demoCookie("technical@example.com"), {
      invoiceId: invoice.id,
    });
    expect(technical.status).toBe(403);
    const stranger = await load(correctLoader, path, await demoCookie("customer@example.com"), {
      invoiceId: invoice.id,
    });
    expect(stranger.status).toBe(404);
  });
});
