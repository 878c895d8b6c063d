// What the tests type into the portal's wizards. Pure (no import reaches the portal's database), so that tests of
// app/domain may use it too: that is why a cloud Hub's sealed password comes from the caller (sealing takes the
// portal's secrets, which it keeps in its database).
import { randomUUID } from "node:crypto";
import type { HubAdministratorFields } from "~/domain/cloud-hub";
import type { UpdateDraft } from "~/domain/license-update-forms";
import { isoDay, type TrialAddress, type TrialDraft, type TrialHubType } from "~/domain/trial-wizard";

/** Where the tests ship a trial's hardware. */
export const TRIAL_ADDRESS: TrialAddress = {
  name: "Ada Lovelace",
  company: "Northwind",
  street: "1 Main Street",
  city: "Springfield",
  state: "IL",
  zipcode: "62701",
  country: "US",
};

/** The administrator the tests give a cloud Hub. */
export const HUB_ADMINISTRATOR: HubAdministratorFields = {
  userName: "ada-admin",
  firstName: "Ada",
  lastName: "Lovelace",
  phoneNumber: "",
  email: "ada@example.com",
};

/** What a customer chooses for a trial: 5 users, 40 employees, from today for 20 days, one token, TRIAL_ADDRESS. */
export const trialChoices = () => ({
  nodes: 5,
  employees: 40,
  startDate: isoDay(new Date()),
  duration: 20,
  tokens: 1,
  sensors: 0,
  address: TRIAL_ADDRESS,
});

/**
 * A trial draft filled in up to its review with trialChoices, paid with `paymentSourceId`; a cloud one also has a
 * new subdomain and HUB_ADMINISTRATOR, and needs the administrator's `sealedPassword` in `overrides`. `overrides`
 * replace whatever else a test chooses otherwise.
 */
export function trialDraft(
  hubType: TrialHubType,
  paymentSourceId: string | null,
  overrides: Partial<TrialDraft> = {},
): Partial<TrialDraft> {
  const hub: Partial<TrialDraft> =
    hubType === "cloud"
      ? {
          subdomain: `trial-${randomUUID().slice(0, 8)}`,
          administrator: HUB_ADMINISTRATOR,
          completed: ["welcome", "instance", "admin", "hardware", "address", "payment", "review"],
        }
      : { completed: ["welcome", "license", "hardware", "address", "payment", "review"] };
  return { ...trialChoices(), paymentSourceId, ...hub, ...overrides };
}

/** A license update of 10 users of Core, monthly, filled in up to its review: 5 users more, paid with `paymentSourceId`. */
export const licenseUpdateDraft = (paymentSourceId: string): Partial<UpdateDraft> => ({
  base: { tier: "core", cycle: "monthly", quantity: 10 },
  tier: "core",
  cycle: "monthly",
  paymentSourceId,
  completed: ["product", "billing"],
  addedUsers: 5,
});
