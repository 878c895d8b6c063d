import {
  adminStepSchema,
  checkCloudHubDraft,
  cloudHubDraftSchema,
  INVALID_HUB_PHONE,
  licenseStepSchema,
  PASSWORD_MISMATCH,
  PASSWORD_REQUIREMENTS,
  SELECT_A_LICENSE,
  urlStepSchema,
  USER_NAME_CHARACTERS,
} from "~/domain/cloud-hub";
import { SUBDOMAIN_MESSAGES } from "~/domain/hub-subdomain";

const errorsOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("the URL step", () => {
  it("says what is wrong with a subdomain, and lowercases a good one", () => {
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "acme" }))).toEqual({
      subdomain: SUBDOMAIN_MESSAGES.tooShort,
    });
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "acme_clinic" }))).toEqual({
      subdomain: SUBDOMAIN_MESSAGES.characters,
    });
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "support" }))).toEqual({
      subdomain: SUBDOMAIN_MESSAGES.notAllowed,
    });
    expect(urlStepSchema.parse({ subdomain: "Acme-Clinic", hubRegion: "2" })).toEqual({
      subdomain: "acme-clinic",
      hubRegion: "2",
    });
  });

  it("makes any region other than 2 region 1", () => {
    expect(urlStepSchema.parse({ subdomain: "acme-clinic", hubRegion: "7" }).hubRegion).toBe("1");
    expect(urlStepSchema.parse({ subdomain: "acme-clinic" }).hubRegion).toBe("1");
  });
});

describe("the License step", () => {
  it("needs a license", () => {
    expect(errorsOf(licenseStepSchema.safeParse({}))).toEqual({ licenseId: SELECT_A_LICENSE });
    expect(errorsOf(licenseStepSchema.safeParse({ licenseId: " " }))).toEqual({ licenseId: SELECT_A_LICENSE });
  });
});

describe("the Administration step", () => {
  const admin = {
    userName: "ada-admin",
    firstName: "Ada",
    lastName: "Lovelace",
    phoneNumber: "",
    email: "ada@example.com",
    password: "Secret123",
    confirmPassword: "Secret123",
  };

  it("takes a valid administrator, the phone optional", () => {
    expect(adminStepSchema.safeParse(admin).success).toBe(true);
    for (const phoneNumber of ["(206) 555-0188", "+206 555 0188", "206.555.0188", "2065550188", "206-555-018812"]) {
      expect(adminStepSchema.safeParse({ ...admin, phoneNumber }).success, phoneNumber).toBe(true);
    }
  });

  it("says what is wrong, on each field", () => {
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, userName: "", firstName: " ", lastName: "" }))).toEqual({
      userName: "Can't be empty.",
      firstName: "Can't be empty.",
      lastName: "Can't be empty.",
    });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, userName: "ada admin" }))).toEqual({
      userName: USER_NAME_CHARACTERS,
    });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, phoneNumber: "555-01" }))).toEqual({
      phoneNumber: INVALID_HUB_PHONE,
    });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, email: "ada@" }))).toEqual({ email: "Invalid Email" });
    expect(
      errorsOf(adminStepSchema.safeParse({ ...admin, password: "secret123", confirmPassword: "secret123" })),
    ).toEqual({ password: PASSWORD_REQUIREMENTS });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, password: "", confirmPassword: "" }))).toEqual({
      password: "Can't be empty.",
    });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, confirmPassword: "Secret124" }))).toEqual({
      confirmPassword: PASSWORD_MISMATCH,
    });
  });
});

describe("the draft's rules", () => {
  it("leaves a done step whose values went missing undone", () => {
    const draft = cloudHubDraftSchema.parse({
      subdomain: "acme-clinic",
      licenseId: "lic",
      completed: ["url", "license", "admin"],
    });
    expect(checkCloudHubDraft(draft).issues.map((issue) => issue.step)).toEqual(["admin"]);
    expect(checkCloudHubDraft({ ...draft, licenseId: null }).issues.map((issue) => issue.step)).toEqual([
      "license",
      "admin",
    ]);
  });
});
