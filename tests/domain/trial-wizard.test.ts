import { describe, expect, it } from "vitest";
import { canStartTrial } from "~/domain/trials";
import {
  checkTrialDraft,
  DURATION_RANGE,
  HARDWARE_RANGE,
  INVALID_DATE,
  MUST_BE_GREATER_THAN_0,
  MUST_HAVE_A_VALUE,
  START_DATE_IN_PAST,
  START_DATE_TOO_FAR,
  trialAddressSchema,
  trialDraftSchema,
  trialHardwareId,
  trialHardwareStepSchema,
  trialHubStepSchema,
  trialInstanceStepSchema,
  trialValidity,
  userNameFrom,
} from "~/domain/trial-wizard";
import { TRIAL_ADDRESS } from "../support/drafts";

const TODAY = "2026-11-23";
const errorsOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("trial eligibility", () => {
  it("gives a regular customer one trial and a distributor any number", () => {
    expect(canStartTrial({ customerType: "customer" }, 0)).toBe(true);
    expect(canStartTrial({ customerType: "customer" }, 1)).toBe(false);
    expect(canStartTrial({ customerType: "distributor" }, 7)).toBe(true);
  });
});

describe("the trial's Hub and license step", () => {
  const schema = trialHubStepSchema(TODAY);
  const valid = { nodes: "5", employees: "40", startDate: TODAY, duration: "20" };

  it("takes users 1 to 100, employees from 1, a start from today and 15 to 30 days", () => {
    expect(schema.parse(valid)).toEqual({ nodes: 5, employees: 40, startDate: TODAY, duration: 20 });
    expect(schema.parse({ ...valid, nodes: "100", duration: "15" })).toMatchObject({ nodes: 100, duration: 15 });
  });

  it("says what is wrong, on each field", () => {
    expect(errorsOf(schema.safeParse({ ...valid, nodes: "0", employees: "", duration: "31" }))).toEqual({
      nodes: MUST_BE_GREATER_THAN_0,
      employees: MUST_BE_GREATER_THAN_0,
      duration: DURATION_RANGE,
    });
    expect(errorsOf(schema.safeParse({ ...valid, duration: "14" }))).toEqual({ duration: DURATION_RANGE });
    expect(errorsOf(schema.safeParse({ ...valid, nodes: "101" }))).toHaveProperty("nodes");
    expect(errorsOf(schema.safeParse({ ...valid, startDate: "23/11/2026" }))).toEqual({ startDate: INVALID_DATE });
    expect(errorsOf(schema.safeParse({ ...valid, startDate: "2026-11-22" }))).toEqual({
      startDate: START_DATE_IN_PAST,
    });
  });

  it("takes only a real calendar day from today to 90 days ahead as the start", () => {
    expect(schema.parse({ ...valid, startDate: "2027-02-21" })).toMatchObject({ startDate: "2027-02-21" });
    for (const [startDate, message] of [
      ["2027-02-22", START_DATE_TOO_FAR],
      ["9999-12-31", START_DATE_TOO_FAR],
      ["2027-02-30", INVALID_DATE],
      ["2026-02-29", INVALID_DATE],
      ["2026-13-01", INVALID_DATE],
      ["+10000-01-01", INVALID_DATE],
    ]) {
      expect(errorsOf(schema.safeParse({ ...valid, startDate })), startDate).toEqual({ startDate: message });
    }
    expect(START_DATE_TOO_FAR).toBe("The start date must be within 90 days from today.");
  });

  it("adds the Hub wizard's subdomain rules for the cloud trial", () => {
    const instance = trialInstanceStepSchema(TODAY);
    expect(instance.parse({ ...valid, subdomain: "Ada-Clinic", hubRegion: "2" })).toMatchObject({
      subdomain: "ada-clinic",
      hubRegion: "2",
    });
    expect(errorsOf(instance.safeParse({ ...valid, subdomain: "abc" }))).toEqual({
      subdomain: "Must have six or more characters.",
    });
  });
});

describe("hardware and address", () => {
  it("takes 0 to 100 tokens and sensors, each required", () => {
    expect(trialHardwareStepSchema.parse({ tokens: "3", sensors: "0" })).toEqual({ tokens: 3, sensors: 0 });
    expect(errorsOf(trialHardwareStepSchema.safeParse({ tokens: "", sensors: "101" }))).toEqual({
      tokens: MUST_HAVE_A_VALUE,
      sensors: HARDWARE_RANGE,
    });
    expect(errorsOf(trialHardwareStepSchema.safeParse({ tokens: "-1", sensors: "1.5" }))).toEqual({
      tokens: HARDWARE_RANGE,
      sensors: HARDWARE_RANGE,
    });
  });

  it("needs every address field", () => {
    // Typed in lower case: the schema keeps the country's code in upper case.
    const address = { ...TRIAL_ADDRESS, country: "us" };
    expect(trialAddressSchema.parse(address).country).toBe("US");
    const errors = errorsOf(trialAddressSchema.safeParse({ ...address, street: " ", country: "" }));
    expect(errors).toEqual({ street: MUST_HAVE_A_VALUE, country: MUST_HAVE_A_VALUE });
  });

  it("orders the reseller variants for a distributor", () => {
    expect(trialHardwareId("tokens", { customerType: "customer" })).toBe("halberd-rechargeable-token");
    expect(trialHardwareId("sensors", { customerType: "distributor" })).toBe("reseller-usb-sensor");
  });
});

describe("the trial license's dates", () => {
  it("runs from the day before the start to the start plus the duration plus 7 days", () => {
    const { validFrom, validTo } = trialValidity("2026-11-23", 20);
    expect(validFrom.toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(validTo.toISOString()).toBe("2026-12-20T00:00:00.000Z");
  });
});

describe("the whole trial draft", () => {
  const done = trialDraftSchema.parse({
    nodes: 5,
    employees: 40,
    startDate: TODAY,
    address: { name: "A", company: "B", street: "C", city: "D", state: "E", zipcode: "F", country: "US" },
    completed: ["welcome", "license", "hardware", "address", "payment", "review"],
  });

  it("holds when every step has its values", () => {
    expect(checkTrialDraft("onpremise", done, TODAY).issues).toEqual([]);
  });

  it("reopens the Hub step when the start has passed, and the payment step when hardware has no card", () => {
    const issues = checkTrialDraft("onpremise", { ...done, tokens: 2 }, "2026-11-24").issues.map((issue) => issue.step);
    expect(issues).toEqual(["license", "payment"]);
  });

  it("needs the Hub's address and administrator for a cloud trial", () => {
    expect(checkTrialDraft("cloud", done, TODAY).issues.map((issue) => issue.step)).toEqual(["instance", "admin"]);
  });

  it("makes the administrator's username of the names", () => {
    expect(userNameFrom("Anne-Marie", "O'Neil")).toBe("Anne-MarieONeil");
  });
});
