import type { PriceList } from "~/domain/customers";
import { getBilling } from "~/server/billing/index.server";

/**
 * Every plan's and add-on's price by id (what renewals are worth at list price), and each plan's name and billing
 * period (monthly or yearly: which reminders its renewals get).
 */
export async function catalogue(): Promise<{
  prices: PriceList;
  planNames: ReadonlyMap<string, string>;
  planPeriods: ReadonlyMap<string, "month" | "year">;
}> {
  const billing = getBilling();
  const [plans, addons] = await Promise.all([billing.listPlans(), billing.listAddons()]);
  return {
    prices: new Map([...plans, ...addons].map((item) => [item.id, item.price])),
    planNames: new Map(plans.map((plan) => [plan.id, plan.name])),
    planPeriods: new Map(plans.map((plan) => [plan.id, plan.period])),
  };
}
