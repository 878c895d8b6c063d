import priceList from "~db/catalogue.json";
import type { Addon, AddonType, BillingPeriod, Coupon, Plan, PlanTier } from "./port.server";

/**
 * The company price list (db/catalogue.json, Chargebee Product Catalog 1.0 shapes) in the port's terms:
 * the embedded engine's catalogue, bundled with the server so nothing is read from disk at run time.
 */
export interface Catalogue {
  plans: Plan[];
  addons: Addon[];
  coupons: Coupon[];
  plan(id: string): Plan | undefined;
  addon(id: string): Addon | undefined;
  coupon(id: string): Coupon | undefined;
}

/**
 * A plan, add-on or coupon in Chargebee Product Catalog 1.0 shape, as the price list and the Chargebee
 * API both give it; only the fields the portal reads.
 */
export interface CatalogueEntry {
  id: string;
  name: string;
  description?: string;
  price?: number;
  period_unit?: string;
  unit?: string;
  currency_code?: string;
  charge_type?: string;
  /** An add-on's type: on_off (present or absent), or quantity, tiered, volume, stairstep (per unit). */
  type?: string;
  status?: string;
  discount_type?: string;
  discount_percentage?: number;
  discount_amount?: number;
  meta_data?: { displayName?: string; tier?: string; addon_type?: string; type?: string; from?: string };
}

const periodOf = (unit: string | undefined): BillingPeriod | null =>
  unit === "month" || unit === "year" ? unit : null;

/** What plans and add-ons have alike. */
const itemOf = (entry: CatalogueEntry) => ({
  id: entry.id,
  name: entry.name,
  displayName: entry.meta_data?.displayName ?? entry.name,
  description: entry.description ?? "",
  price: entry.price ?? 0,
});

export function planOf(entry: CatalogueEntry): Plan {
  return {
    ...itemOf(entry),
    period: periodOf(entry.period_unit) ?? "month",
    tier: (entry.meta_data?.tier as PlanTier | undefined) ?? null,
  };
}

export function addonOf(entry: CatalogueEntry): Addon {
  return {
    ...itemOf(entry),
    unit: entry.unit ?? null,
    currencyCode: entry.currency_code ?? "USD",
    addonType: addonTypeOf(entry),
    period: entry.charge_type === "recurring" ? periodOf(entry.period_unit) : null,
    chargedPerUnit: entry.type !== "on_off",
  };
}

/** meta_data.addon_type when the entry gives a known one, else what the charge type implies. */
function addonTypeOf(entry: { charge_type?: string; meta_data?: { addon_type?: string } }): AddonType {
  const given = entry.meta_data?.addon_type;
  if (given === "hardware" || given === "recurring" || given === "non-recurring" || given === "shipping") return given;
  return entry.charge_type === "recurring" ? "recurring" : "non-recurring";
}

export function couponOf(entry: CatalogueEntry): Coupon {
  return {
    id: entry.id,
    name: entry.name,
    status: (entry.status as Coupon["status"] | undefined) ?? "active",
    discountType: entry.discount_type === "fixed_amount" ? "fixed_amount" : "percentage",
    discountPercentage: entry.discount_percentage ?? null,
    discountAmount: entry.discount_amount ?? null,
    metaData: { type: entry.meta_data?.type, from: entry.meta_data?.from },
  };
}

function byId<T extends { id: string }>(items: T[]): (id: string) => T | undefined {
  const index = new Map(items.map((item) => [item.id, item]));
  return (id) => index.get(id);
}

function buildCatalogue(): Catalogue {
  const plans = (priceList.plans as CatalogueEntry[]).map(planOf);
  const addons = (priceList.addons as CatalogueEntry[]).map(addonOf);
  const coupons = (priceList.coupons as CatalogueEntry[]).map(couponOf);
  return { plans, addons, coupons, plan: byId(plans), addon: byId(addons), coupon: byId(coupons) };
}

export const catalogue: Catalogue = buildCatalogue();
