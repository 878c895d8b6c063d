import { formatCents, formatDate } from "~/domain/format";
import { tokenOf } from "../support/card-tokens";
import { createLocalBilling } from "~/server/billing/local/engine.server";
import type { InvoicePdf } from "~/server/billing/port.server";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { REVERSE_CHARGE_NOTE } from "~/domain/tax-ids";
import { pdfText } from "../support/pdf-text";
import { GERMAN_ADDRESS, GERMAN_VAT_NUMBER } from "../support/german-business";

/**
 * The embedded engine's invoice PDF, read back as a person reads it (its text, through pdf.js): who was billed
 * and where it ships, the number, date and status, each line, discounts, credits and what is due.
 */
let clock = new Date("2026-04-01T00:00:00Z");
const billing = createLocalBilling({ store: db, now: () => clock });
const cards = createLocalCards({ store: db, now: () => clock });
const CUSTOMER = "cust_pdf";
const BILLING_ADDRESS = {
  firstName: "Priya",
  lastName: "Dalton",
  company: "Pdf Clinics",
  line1: "12 Harbor Way",
  line2: "Floor 3",
  city: "Portland",
  stateCode: "OR",
  zip: "97201",
  country: "US",
};
const SHIPPING_ADDRESS = { firstName: "Dock", lastName: "Team", line1: "9 Pier Road", city: "Astoria", zip: "97103" };

async function card(number: string, key: string, customerId = CUSTOMER) {
  const form = new FormData();
  form.set("card_number", number);
  form.set("card_expiry", "12 / 34");
  form.set("card_cvc", "123");
  const tmpToken = await tokenOf(cards, form, { firstName: "Priya", lastName: "Dalton" }, `${key}:token`);
  return billing.createPaymentSourceFromTempToken({ customerId, tmpToken, setAsPrimary: true }, key);
}

async function textOf(pdf: InvoicePdf) {
  if (pdf.kind !== "document") throw new Error("The embedded engine renders the document itself.");
  expect(new TextDecoder().decode(pdf.bytes.slice(0, 5))).toBe("%PDF-");
  return pdfText(pdf.bytes);
}

beforeAll(async () => {
  await billing.ensureCustomer(
    CUSTOMER,
    { firstName: "Priya", lastName: "Dalton", email: "priya@example.org", phone: "", company: "Pdf Clinics" },
    "pdf:customer",
  );
  await billing.updateBillingInfo(CUSTOMER, {
    billingAddress: BILLING_ADDRESS,
    vatNumber: null,
    vatNumberStatus: "unchecked",
  });
});

describe("an invoice's PDF", () => {
  it("has the number, date, status, who was billed, where it ships, its lines, the discount and the totals", async () => {
    const visa = await card("4242 4242 4242 4242", "pdf:visa");
    const subscription = await billing.createSubscription(
      {
        customerId: CUSTOMER,
        planId: "core-monthly",
        planQuantity: 10,
        addons: [{ id: "gatekeeper-cloud-monthly", quantity: 1 }],
        couponIds: ["WELCOME10"],
        shippingAddress: SHIPPING_ADDRESS,
        paymentSourceId: visa.id,
        licenseAssignment: "Pdf Clinics",
      },
      "pdf:subscribe",
    );
    const [first] = await billing.listInvoices(CUSTOMER, { subscriptionId: subscription.id });
    const pdf = await billing.invoicePdf(CUSTOMER, first.id);
    expect(pdf).toMatchObject({ kind: "document", fileName: `invoice-${first.number}.pdf` });
    const text = await textOf(pdf);
    for (const expected of [
      `Invoice number:   ${first.number}`,
      "Issue date:   04/01/2026",
      "Supply period:   04/01/2026 – 05/01/2026",
      "GateKeeper Demo Ltd. (demo seller)",
      "1 Demo Quay",
      "VAT number: IE6388047V",
      "Status:   Paid",
      "Paid on:   04/01/2026",
      "Pdf Clinics",
      "Priya Dalton",
      "priya@example.org",
      "12 Harbor Way",
      "Floor 3",
      "Portland, OR 97201",
      "United States of America",
      "Ship to",
      "Dock Team",
      "9 Pier Road",
      "Astoria, 97103",
      "Core (Monthly Billing)   04/01/2026 – 05/01/2026   10   $4.00   $40.00",
      "GateKeeper Cloud Hub (Monthly)   04/01/2026 – 05/01/2026   1   $99.00   $99.00",
      `Subtotal   ${formatCents(13900)}`,
      `Discount: Welcome 10% off   -${formatCents(1390)}`,
      `Total   ${formatCents(12510)}`,
      `Amount paid   ${formatCents(12510)}`,
      "Amount due   $0.00",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("shows the credits a change applied, and what a declined renewal still asks for", async () => {
    const subscription = await billing.findSubscriptionByKey(CUSTOMER, "pdf:subscribe");
    if (!subscription) throw new Error("The first test makes the subscription.");
    clock = new Date("2026-04-16T00:00:00Z");
    await billing.updateSubscription(
      CUSTOMER,
      subscription.id,
      { planId: "core-monthly", planQuantity: 15 },
      "pdf:more-users",
    );
    const declining = await card("4000 0000 0000 0341", "pdf:declining");
    await billing.overrideBillingProfile(CUSTOMER, subscription.id, {
      paymentSourceId: declining.id,
      autoCollection: true,
    });
    await billing.advanceClock(15);

    const [renewal, change] = await billing.listInvoices(CUSTOMER, { subscriptionId: subscription.id });
    expect(change.purpose).toBe("subscription_change");
    const changeText = await textOf(await billing.invoicePdf(CUSTOMER, change.id));
    // 15 x 400 x 1/2 + 9900 x 1/2 = 7950, less the unused half of the old term (2000 + 4950).
    expect(changeText).toContain(`Credits applied   -${formatCents(6950)}`);
    expect(changeText).toContain(`Amount due   $0.00`);

    expect(renewal).toMatchObject({ purpose: "renewal", status: "payment_due" });
    const renewalText = await textOf(await billing.invoicePdf(CUSTOMER, renewal.id));
    expect(renewalText).toContain("Status:   Payment due");
    expect(renewalText).toContain(`Amount due   ${formatCents(15 * 400 + 9900)}`);
    expect(renewalText).not.toContain("Paid on");
  });

  it("of another customer's invoice is not found", async () => {
    const [invoice] = await billing.listInvoices(CUSTOMER);
    await expect(billing.invoicePdf("cust_demo_customer", invoice.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("an issued invoice", () => {
  const GERMAN = "cust_pdf_de";

  /** A German business's first invoice, of a license bought with a purchase order number. */
  async function germanInvoice(vatNumberStatus: "valid" | "unchecked") {
    const id = `${GERMAN}_${vatNumberStatus}`;
    clock = new Date("2027-01-15T00:00:00Z");
    await billing.ensureCustomer(
      id,
      { firstName: "Jonas", lastName: "Becker", email: "jonas@example.de", phone: "", company: "Becker Praxis GmbH" },
      `${id}:customer`,
    );
    await billing.updateBillingInfo(id, {
      billingAddress: GERMAN_ADDRESS,
      vatNumber: GERMAN_VAT_NUMBER,
      vatNumberStatus,
    });
    const visa = await card("4242 4242 4242 4242", `${id}:visa`, id);
    const subscription = await billing.createSubscription(
      {
        customerId: id,
        planId: "core-monthly",
        planQuantity: 5,
        paymentSourceId: visa.id,
        licenseAssignment: "Becker Praxis",
        poNumber: "PO-7781",
      },
      `${id}:subscribe`,
    );
    const [invoice] = await billing.listInvoices(id, { subscriptionId: subscription.id });
    return { id, invoice };
  }

  it("names both parties' VAT numbers, its PO number and, for a valid number of another member state, the reverse charge", async () => {
    const { id, invoice } = await germanInvoice("valid");
    expect(invoice).toMatchObject({
      poNumber: "PO-7781",
      billedTo: { name: "Becker Praxis GmbH", vatNumber: GERMAN_VAT_NUMBER },
    });
    const text = await textOf(await billing.invoicePdf(id, invoice.id));
    for (const expected of [
      "GateKeeper Demo Ltd. (demo seller)",
      "VAT number: IE6388047V",
      "Becker Praxis GmbH",
      "VAT number: DE136695976",
      "PO number:   PO-7781",
      `Issue date:   ${formatDate(invoice.date)}`,
      REVERSE_CHARGE_NOTE,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("has no reverse-charge note while the number is not checked", async () => {
    const { id, invoice } = await germanInvoice("unchecked");
    const text = await textOf(await billing.invoicePdf(id, invoice.id));
    expect(text).toContain("VAT number: DE136695976");
    expect(text).not.toContain(REVERSE_CHARGE_NOTE);
  });

  it("keeps the buyer of the day it was issued when the billing profile changes", async () => {
    const id = `${GERMAN}_valid`;
    const [invoice] = await billing.listInvoices(id);
    await billing.updateCustomer(id, {
      firstName: "Jonas",
      lastName: "Becker",
      email: "jonas@example.de",
      phone: "",
      company: "Becker Zahnmedizin AG",
    });
    await billing.updateBillingInfo(id, {
      billingAddress: { ...GERMAN_ADDRESS, line1: "Ringstraße 9" },
      vatNumber: null,
      vatNumberStatus: "unchecked",
    });
    const text = await textOf(await billing.invoicePdf(id, invoice.id));
    expect(text).toContain("Becker Praxis GmbH");
    expect(text).toContain("Hauptstraße 5");
    expect(text).not.toContain("Becker Zahnmedizin AG");
    expect(text).not.toContain("Ringstraße 9");
  });

  it("is corrected as revision 2 under the same number, and revision 1 stays downloadable", async () => {
    const id = `${GERMAN}_valid`;
    const [invoice] = await billing.listInvoices(id);
    const corrected = await billing.correctInvoice(
      id,
      invoice.id,
      {
        company: "Becker Praxis GmbH",
        billingAddress: { ...GERMAN_ADDRESS, line1: "Domplatz 1" },
        vatNumber: GERMAN_VAT_NUMBER,
        vatNumberStatus: "valid",
        poNumber: "PO-7781-B",
      },
      `${id}:correct`,
    );
    expect(corrected).toMatchObject({
      id: invoice.id,
      number: invoice.number,
      total: invoice.total,
      poNumber: "PO-7781-B",
    });
    expect(corrected.resourceVersion).toBeGreaterThan(invoice.resourceVersion);
    const current = await billing.invoicePdf(id, invoice.id);
    expect(current).toMatchObject({ fileName: `invoice-${invoice.number}-revision-2.pdf` });
    const text = await textOf(current);
    expect(text).toContain(`Revision 2, replaces the document of ${formatDate(invoice.date)}`);
    expect(text).toContain("Domplatz 1");
    expect(text).toContain("PO number:   PO-7781-B");
    expect(await billing.listInvoiceRevisions(id, invoice.id)).toEqual([{ revision: 1, issuedAt: invoice.date }]);
    const first = await textOf(await billing.invoicePdf(id, invoice.id, 1));
    expect(first).toContain("Hauptstraße 5");
    expect(first).not.toContain("Revision");
    await expect(billing.invoicePdf(id, invoice.id, 5)).rejects.toMatchObject({ code: "not_found" });
  });
});
