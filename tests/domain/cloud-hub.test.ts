import {
  adminStepSchema,
  checkCloudHubDraft,
  cloudHubDraftSchema,
  INVALID_HUB_PHONE,
  licenseStepSchema,
  pageOf,
  PASSWORD_MISMATCH,
  PASSWORD_REQUIREMENTS,
  SELECT_A_LICENSE,
  selectableLicenses,
  urlStepSchema,
  USER_NAME_CHARACTERS,
  type SelectableLicense,
} from "~/domain/cloud-hub";
import { SUBDOMAIN_MESSAGES } from "~/domain/hub-subdomain";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-06-01T12:00:00Z");

const errorsOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("the URL step (spec 001 §5)", () => {
  it("says what is wrong with a subdomain in the spec's words, and lowercases a good one", () => {
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "acme" }))).toEqual({ subdomain: SUBDOMAIN_MESSAGES.tooShort });
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "acme_clinic" }))).toEqual({ subdomain: SUBDOMAIN_MESSAGES.characters });
    expect(errorsOf(urlStepSchema.safeParse({ subdomain: "support" }))).toEqual({ subdomain: SUBDOMAIN_MESSAGES.notAllowed });
    expect(urlStepSchema.parse({ subdomain: "Acme-Clinic", hubRegion: "2" })).toEqual({ subdomain: "acme-clinic", hubRegion: "2" });
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

  const license = (id: string, changes: Partial<SelectableLicense> = {}): SelectableLicense => ({
    id,
    externalLicenseId: `GK-${id}`,
    name: `Org ${id}`,
    nodes: 10,
    planType: "core",
    hasCloudSupport: true,
    isUsed: false,
    validFrom: new Date(now.getTime() - 10 * DAY),
    validTo: new Date(now.getTime() + 100 * DAY),
    ...changes,
  });

  it("lists unused licenses with cloud support that did not expire more than a day ago, newest first", () => {
    const list = [
      license("old", { validFrom: new Date(now.getTime() - 50 * DAY) }),
      license("new", { validFrom: new Date(now.getTime() - 1 * DAY) }),
      license("used", { isUsed: true }),
      license("onprem", { hasCloudSupport: false }),
      license("expired", { validTo: new Date(now.getTime() - 2 * DAY) }),
      license("just-expired", { validTo: new Date(now.getTime() - DAY / 2) }),
    ];
    expect(selectableLicenses(list, "", now).map((item) => item.id)).toEqual(["new", "just-expired", "old"]);
  });

  it("searches by organization name and license id, in any case", () => {
    const list = [license("a", { name: "Northwind East" }), license("b", { name: "Contoso", externalLicenseId: "GK-2026-ABCD" })];
    expect(selectableLicenses(list, "northwind", now).map((item) => item.id)).toEqual(["a"]);
    expect(selectableLicenses(list, "abcd", now).map((item) => item.id)).toEqual(["b"]);
  });

  it("pages 5 rows at a time with the 'x-y of n items' text, clamping a page out of range", () => {
    const items = Array.from({ length: 12 }, (_, index) => index);
    expect(pageOf(items, 1, 5)).toMatchObject({ rows: [0, 1, 2, 3, 4], page: 1, pages: 3, total: "1-5 of 12 items" });
    expect(pageOf(items, 9, 5)).toMatchObject({ rows: [10, 11], page: 3, total: "11-12 of 12 items" });
    expect(pageOf([], 1, 5)).toMatchObject({ rows: [], pages: 1, total: "0-0 of 0 items" });
  });
});

describe("the Administration step (spec 001 §5)", () => {
  const admin = { userName: "ada-admin", firstName: "Ada", lastName: "Lovelace", phoneNumber: "", email: "ada@example.com", password: "Secret123", confirmPassword: "Secret123" };

  it("takes a valid administrator, the phone optional", () => {
    expect(adminStepSchema.safeParse(admin).success).toBe(true);
    for (const phoneNumber of ["(206) 555-0188", "+206 555 0188", "206.555.0188", "2065550188", "206-555-018812"]) {
      expect(adminStepSchema.safeParse({ ...admin, phoneNumber }).success, phoneNumber).toBe(true);
    }
  });

  it("says what is wrong in the spec's words", () => {
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, userName: "", firstName: " ", lastName: "" }))).toEqual({
      userName: "Can't be empty.",
      firstName: "Can't be empty.",
      lastName: "Can't be empty.",
    });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, userName: "ada admin" }))).toEqual({ userName: USER_NAME_CHARACTERS });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, phoneNumber: "555-01" }))).toEqual({ phoneNumber: INVALID_HUB_PHONE });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, email: "ada@" }))).toEqual({ email: "Invalid Email" });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, password: "secret123", confirmPassword: "secret123" }))).toEqual({ password: PASSWORD_REQUIREMENTS });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, password: "", confirmPassword: "" }))).toEqual({ password: "Can't be empty." });
    expect(errorsOf(adminStepSchema.safeParse({ ...admin, confirmPassword: "Secret124" }))).toEqual({ confirmPassword: PASSWORD_MISMATCH });
  });
});

describe("the draft's rules", () => {
  it("leaves a done step whose values went missing undone", () => {
    const draft = cloudHubDraftSchema.parse({ subdomain: "acme-clinic", licenseId: "lic", completed: ["url", "license", "admin"] });
    expect(checkCloudHubDraft(draft).issues.map((issue) => issue.step)).toEqual(["admin"]);
    expect(checkCloudHubDraft({ ...draft, licenseId: null }).issues.map((issue) => issue.step)).toEqual(["license", "admin"]);
  });
});
