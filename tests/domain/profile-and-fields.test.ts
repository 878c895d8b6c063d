import { describe, expect, it } from "vitest";
import { passwordChangeSchema, profileSchema, unmetPasswordRequirements } from "~/domain/profile";
import { COUNTRIES, isCountryCode } from "~/domain/countries";
import { DIAL_CODES, splitPhone, toE164 } from "~/domain/phone";

const errorsOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("the profile form", () => {
  it("says 'Cannot be empty.' for each missing field", () => {
    expect(
      errorsOf(profileSchema.safeParse({ firstName: " ", lastName: "", company: "", phone_country: "US", phone: "" })),
    ).toEqual({
      firstName: "Cannot be empty.",
      lastName: "Cannot be empty.",
      company: "Cannot be empty.",
      phone: "Cannot be empty.",
    });
  });

  it("says 'Invalid phone number.' for a number that is not one, and stores a valid one in E.164", () => {
    const base = { firstName: "Dana", lastName: "Whitfield", company: "Northwind Clinics", phone_country: "US" };
    expect(errorsOf(profileSchema.safeParse({ ...base, phone: "12345" }))).toEqual({ phone: "Invalid phone number." });
    const { phone_country: _country, ...saved } = base;
    expect(profileSchema.parse({ ...base, phone: "(415) 555-0134" })).toEqual({ ...saved, phone: "+14155550134" });
  });
});

describe("phone numbers", () => {
  it("offer US and GB first", () => {
    expect(DIAL_CODES.slice(0, 2).map((code) => code.country)).toEqual(["US", "GB"]);
    expect(DIAL_CODES[1].label).toBe("United Kingdom (+44)");
  });

  it("read a number in the chosen country or with its own +code", () => {
    expect(toE164("GB", "020 7946 0321")).toBe("+442079460321");
    expect(toE164("US", "+44 20 7946 0321")).toBe("+442079460321");
    expect(toE164("US", "555")).toBeNull();
  });

  it("split a stored number back into country and national number", () => {
    expect(splitPhone("+442079460321")).toEqual({ country: "GB", national: "020 7946 0321" });
    expect(splitPhone("")).toEqual({ country: "US", national: "" });
  });
});

describe("countries", () => {
  it("are the ISO list with 2-letter codes and English names", () => {
    expect(COUNTRIES.length).toBeGreaterThan(240);
    expect(COUNTRIES.find((country) => country.code === "DE")?.name).toBe("Germany");
    expect(isCountryCode("us")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
  });
});

describe("changing the password", () => {
  it("lists each unmet requirement of the new password", () => {
    expect(unmetPasswordRequirements("short")).toEqual(["length", "digit", "uppercase", "symbol"]);
    expect(unmetPasswordRequirements("  Abcdefg1!  ")).toEqual(["length"]);
    expect(unmetPasswordRequirements("Sturdy-Gate-2026")).toEqual([]);
  });

  it("gives each field's message", () => {
    expect(
      errorsOf(passwordChangeSchema.safeParse({ old_password: "", new_password: "weak", confirm_password: "other" })),
    ).toEqual({
      old_password: "Cannot be empty.",
      new_password: "Doesn't match requirements.",
      confirm_password: "Doesn't match new password.",
    });
    expect(
      errorsOf(
        passwordChangeSchema.safeParse({
          old_password: "x",
          new_password: "Sturdy-Gate-2026",
          confirm_password: "other",
        }),
      ),
    ).toEqual({ confirm_password: "Doesn't match new password." });
  });
});
