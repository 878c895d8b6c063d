import { describe, expect, it } from "vitest";
import { areAddressesValid, paymentStepBlockers, preselectSource } from "~/domain/payment-step";
import { billingProfileSchema, cardFormSchema, shippingAddressSchema } from "~/domain/billing-forms";
import { brandName } from "~/domain/payment-cards";
import { formatExpiry } from "~/ui/billing/payment-methods";

/** Each field's messages, as zod flattens them. */
const errorsOf = (result: { error?: { flatten(): { fieldErrors: Record<string, string[] | undefined> } } }) =>
  result.error?.flatten().fieldErrors ?? {};

describe("the card form", () => {
  it("takes the embedded tokenizer's card number or Stripe's token, and reads set_as_primary as a checkbox", () => {
    const holder = {
      first_name: "Dana",
      last_name: "Whitfield",
      address_line1: "450 Mission Street",
      address_city: "San Francisco",
      address_state: "CA",
      address_zip: "94105",
      address_country: "us",
    };
    expect(cardFormSchema.parse({ ...holder, card_setup: "seti_1", set_as_primary: "on" })).toMatchObject({
      address_country: "US",
      address_line2: "",
      set_as_primary: true,
    });
    expect(cardFormSchema.parse({ ...holder, card_number: "4242" }).set_as_primary).toBe(false);
    expect(errorsOf(cardFormSchema.safeParse({ ...holder, address_country: "Narnia" }))).toEqual({
      address_country: ["Cannot be empty."],
      card: ["Cannot be empty."],
    });
  });
});

describe("the billing profile and shipping forms", () => {
  const filled = {
    first_name: "Dana",
    last_name: "Whitfield",
    email: "dana@example.com",
    company: "Northwind Clinics",
    phone_country: "US",
    phone: "(415) 555-0134",
    line1: "450 Mission Street",
    city: "San Francisco",
    state: "CA",
    zip: "94105",
    country: "US",
  };

  it("ask for a country with 'Please select your country.' in the billing profile and 'Cannot be empty.' for shipping", () => {
    expect(errorsOf(billingProfileSchema.safeParse({ ...filled, country: "" }))).toEqual({
      country: ["Please select your country."],
    });
    expect(errorsOf(shippingAddressSchema.safeParse({ ...filled, country: "" }))).toEqual({
      country: ["Cannot be empty."],
    });
  });

  it("require email, phone and company in the billing profile only", () => {
    const { email: _email, company: _company, phone: _phone, ...rest } = filled;
    expect(errorsOf(billingProfileSchema.safeParse(rest))).toEqual({
      email: ["Cannot be empty."],
      company: ["Cannot be empty."],
      phone: ["Cannot be empty."],
    });
    expect(shippingAddressSchema.parse(rest)).toMatchObject({ email: "", company: "", phone: "", line2: "" });
    expect(errorsOf(shippingAddressSchema.safeParse({ ...rest, email: "dana@" }))).toEqual({
      email: ["Invalid Email"],
    });
  });

  it("store the phone in E.164", () => {
    expect(billingProfileSchema.parse(filled).phone).toBe("+14155550134");
  });
});

describe("the payment step's rules", () => {
  const source = (id: string, status = "valid") => ({ id, status });

  it("preselect the primary card when usable, else the first usable one", () => {
    expect(preselectSource([source("a"), source("b")], "b")).toBe("b");
    expect(preselectSource([source("a", "invalid"), source("b")], "a")).toBe("b");
    expect(preselectSource([source("a", "expiring")], null)).toBe("a");
    expect(preselectSource([source("a", "expired")], "a")).toBeNull();
  });

  it("accept the addresses when billing has a street, or shipping has a first name and a street", () => {
    expect(areAddressesValid({ line1: "1 Main" }, null)).toBe(true);
    expect(areAddressesValid(null, { firstName: "Sam", line1: "9 Dock Road" })).toBe(true);
    expect(areAddressesValid({ line1: " " }, { line1: "9 Dock Road" })).toBe(false);
    expect(areAddressesValid(null, null)).toBe(false);
  });

  it("give Next's disabled reasons as the page writes them", () => {
    expect(paymentStepBlockers(true, true)).toEqual([]);
    expect(paymentStepBlockers(false, false)).toEqual([
      "Please add and select a valid payment method.",
      "Please make sure billing & shipping address are valid.",
    ]);
  });
});

describe("card display", () => {
  it("shows expiry as 'Mon YYYY' and brands by name", () => {
    expect(formatExpiry(9, 2031)).toBe("Sep 2031");
    expect(formatExpiry(12, 2029)).toBe("Dec 2029");
    expect(brandName("american_express")).toBe("American Express");
    expect(brandName("jcb")).toBe("Jcb");
  });
});
