import { buysAtResellerPrices } from "~/domain/access-policy";
import type { OrganizationKind } from "~db/schema";
import {
  displayName,
  hostingAddonId,
  idFor,
  listId,
  offsiteAccessAddonId,
  PLAN_TIERS,
  planId,
  type Cycle,
  type Hosting,
  type Tier,
} from "~/domain/subscription";
import { getBilling, type Addon, type Plan } from "~/server/billing/index.server";

/** A plan or add-on as this customer buys it: their id (reseller- for distributors), the list id, the name they see. */
export interface OfferedItem {
  id: string;
  listId: string;
  name: string;
  description: string;
  /** Cents, per user and period for plans, per unit for add-ons. */
  price: number;
}

export interface Offer {
  plans: (OfferedItem & { tier: Tier })[];
  hosting: Record<Hosting, OfferedItem>;
  offsiteAccess: OfferedItem;
  hardware: OfferedItem[];
  support: OfferedItem[];
}

const offered = (item: Plan | Addon): OfferedItem => ({
  id: item.id,
  listId: listId(item.id),
  name: displayName(item.name),
  description: item.description,
  price: item.price,
});

/** What this customer (an organization) can buy in the given cycle, from the billing provider's catalogue. */
export async function offerFor(customer: { customerType: OrganizationKind }, cycle: Cycle): Promise<Offer> {
  const reseller = buysAtResellerPrices(customer);
  const [plans, addons] = await Promise.all([getBilling().listPlans(), getBilling().listAddons()]);
  const addon = (id: string) => {
    const found = addons.find((item) => item.id === id);
    if (!found) throw new Error(`The catalogue has no add-on ${id}.`);
    return offered(found);
  };
  const forCustomer = (item: Addon) => item.id === idFor(item.id, reseller);
  return {
    plans: PLAN_TIERS.map((tier) => {
      const plan = plans.find((item) => item.id === planId(tier, cycle, reseller));
      if (!plan) throw new Error(`The catalogue has no plan ${planId(tier, cycle, reseller)}.`);
      return { ...offered(plan), tier };
    }),
    hosting: {
      cloud: addon(hostingAddonId("cloud", cycle, reseller)),
      "on-premise": addon(hostingAddonId("on-premise", cycle, reseller)),
    },
    offsiteAccess: addon(offsiteAccessAddonId(cycle, reseller)),
    hardware: addons.filter((item) => item.addonType === "hardware" && forCustomer(item)).map(offered),
    support: addons.filter((item) => item.addonType === "non-recurring" && forCustomer(item)).map(offered),
  };
}
