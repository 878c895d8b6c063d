import { describe, expect, it } from "vitest";
import {
  hardwareStepSchema,
  planStepSchema,
  quantityField,
  addonField,
  supportStepSchema,
  subscriptionDraftSchema,
} from "~/domain/new-subscription";
import {
  blockedMessage,
  CLOUD_ONLY_REASON,
  displayName,
  excludedBy,
  hostingAddonId,
  idFor,
  offsiteAccessAddonId,
  orderNextStep,
  planId,
  tickedQuantity,
} from "~/domain/subscription";
import { firstIncompleteBefore, markCompleted, stepAfter } from "~/domain/wizard";
import { SUBSCRIPTION_STEPS } from "~/domain/new-subscription";

const messages = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("plan and add-on ids", () => {
  it("switching the cycle rewrites the plan, hosting and offsite-access ids together", () => {
    expect([
      planId("advanced", "monthly", false),
      hostingAddonId("cloud", "monthly", false),
      offsiteAccessAddonId("monthly", false),
    ]).toEqual(["advanced-monthly", "gatekeeper-cloud-monthly", "offsite-access-monthly"]);
    expect([
      planId("advanced", "yearly", false),
      hostingAddonId("on-premise", "yearly", false),
      offsiteAccessAddonId("yearly", false),
    ]).toEqual(["advanced-yearly", "on-premise-install-yearly", "offsite-access-yearly"]);
  });

  it("gives distributors the reseller- ids and drops 'for resellers' from names", () => {
    expect(planId("core", "monthly", true)).toBe("reseller-core-monthly");
    expect(hostingAddonId("cloud", "yearly", true)).toBe("reseller-gatekeeper-cloud-yearly");
    expect(idFor("usb-sensor", true)).toBe("reseller-usb-sensor");
    expect(idFor("reseller-usb-sensor", false)).toBe("usb-sensor");
    expect(displayName("Core (Monthly Billing) for resellers")).toBe("Core (Monthly Billing)");
  });

  it("starts a new draft on advanced-monthly for one user on a cloud Hub", () => {
    const draft = subscriptionDraftSchema.parse({});
    expect(planId(draft.tier, draft.cycle, false)).toBe("advanced-monthly");
    expect(draft).toMatchObject({ users: 1, hosting: "cloud", offsiteAccess: false, completed: [] });
  });
});

describe("support add-on rules", () => {
  const addons = [
    { id: "on-site-installation", name: "On-Site Installation" },
    { id: "virtual-installation", name: "Virtual Installation" },
    { id: "training-web", name: "Web Training (per person)" },
  ];

  it("on-site and virtual installation exclude each other, reseller ids too", () => {
    expect(excludedBy("virtual-installation", ["on-site-installation"])).toBe("on-site-installation");
    expect(excludedBy("reseller-on-site-installation", ["reseller-virtual-installation"])).toBe(
      "reseller-virtual-installation",
    );
    expect(excludedBy("training-web", ["on-site-installation"])).toBeNull();
    expect(excludedBy("on-site-installation", ["on-site-installation"])).toBeNull();
  });

  it("names the blocking add-on in its message", () => {
    expect(blockedMessage("On-Site Installation")).toBe(
      "You cannot select this add-on because dependent add-on On-Site Installation is already selected. Uncheck On-Site Installation to allow this add-on.",
    );
  });

  it("refuses both installations at once, and installation without a cloud Hub", () => {
    const both = { [addonField("on-site-installation")]: "on", [addonField("virtual-installation")]: "on" };
    expect(messages(supportStepSchema(addons, "cloud").safeParse(both))).toEqual({
      [addonField("virtual-installation")]: blockedMessage("On-Site Installation"),
    });
    expect(
      messages(supportStepSchema(addons, "on-premise").safeParse({ [addonField("virtual-installation")]: "on" })),
    ).toEqual({
      [addonField("virtual-installation")]: CLOUD_ONLY_REASON,
    });
    expect(
      supportStepSchema(addons, "cloud").parse({
        [addonField("training-web")]: "on",
        [addonField("virtual-installation")]: "on",
      }),
    ).toEqual(["virtual-installation", "training-web"]);
  });

  it("ticking sets 1 or keeps a higher quantity; unticking sets 0", () => {
    expect(tickedQuantity(0, true)).toBe(1);
    expect(tickedQuantity(3, true)).toBe(3);
    expect(tickedQuantity(3, false)).toBe(0);
  });
});

describe("the wizard's forms", () => {
  it("asks for an organization and at least one user", () => {
    expect(messages(planStepSchema.safeParse({ tier: "core", organization: "  ", users: "0" }))).toEqual({
      organization: "Cannot be empty.",
      users: "Must be at least 1.",
    });
    expect(planStepSchema.parse({ tier: "ultimate", organization: "Acme", users: "25" })).toEqual({
      tier: "ultimate",
      organization: "Acme",
      users: 25,
    });
  });

  it("reads hardware quantities: empty is 0, negatives and fractions are refused", () => {
    const schema = hardwareStepSchema(["usb-sensor", "halberd-rechargeable-token"]);
    expect(
      schema.parse({ [quantityField("usb-sensor")]: "6", [quantityField("halberd-rechargeable-token")]: "" }),
    ).toEqual({
      "usb-sensor": 6,
      "halberd-rechargeable-token": 0,
    });
    expect(
      messages(
        schema.safeParse({ [quantityField("usb-sensor")]: "-1", [quantityField("halberd-rechargeable-token")]: "1.5" }),
      ),
    ).toEqual({
      [quantityField("usb-sensor")]: "Must be a whole number from 0 to 1000.",
      [quantityField("halberd-rechargeable-token")]: "Must be a whole number from 0 to 1000.",
    });
  });
});

describe("the step order", () => {
  it("sends a bookmarked step to the first earlier step that is not done", () => {
    expect(firstIncompleteBefore(SUBSCRIPTION_STEPS, "review", ["plan", "hosting"])).toBe("hardware");
    expect(firstIncompleteBefore(SUBSCRIPTION_STEPS, "plan", [])).toBeNull();
    expect(
      firstIncompleteBefore(SUBSCRIPTION_STEPS, "order", [
        "plan",
        "hosting",
        "hardware",
        "support",
        "review",
        "billing",
      ]),
    ).toBeNull();
    expect(stepAfter(SUBSCRIPTION_STEPS, "support")).toBe("review");
    expect(markCompleted(["plan"], "plan")).toEqual(["plan"]);
  });
});

describe("after the order", () => {
  it("offers the closing buttons that fit the order", () => {
    expect(orderNextStep({ origin: "cloud-hubs", hosting: "cloud", offsiteAccess: false })).toBe(
      "continue-cloud-deployment",
    );
    expect(orderNextStep({ origin: null, hosting: "cloud", offsiteAccess: false })).toBe("deploy-cloud-hub");
    expect(orderNextStep({ origin: null, hosting: "on-premise", offsiteAccess: true })).toBe("download-license");
    expect(orderNextStep({ origin: null, hosting: "on-premise", offsiteAccess: false })).toBe("download-license");
  });
});
