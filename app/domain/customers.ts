import type { ItemQuantity } from "~db/billing-values";
import type { PostalAddress } from "~db/schema";
import type { Role } from "./access-policy";
import { setPageStart, type PageStart } from "./row-pages";

/**
 * A distributor's end customers (/customers): their pages' addresses, what their lists show, and what a renewal
 * will cost. Pure, so that the pages and the server read the same rules; no zod (the record's form rules load on
 * first use, from ./customer-forms).
 */

export const CUSTOMERS_PATH = "/customers";
export const CUSTOMERS_PER_PAGE = 20;

const segment = encodeURIComponent;

export const customerUrls = {
  list: CUSTOMERS_PATH,
  create: `${CUSTOMERS_PATH}/new`,
  page: (customerId: string) => `${CUSTOMERS_PATH}/${segment(customerId)}`,
  edit: (customerId: string) => `${CUSTOMERS_PATH}/${segment(customerId)}/edit`,
  renewals: `${CUSTOMERS_PATH}/renewals`,
};

/**
 * The roles a distributor gives an end customer's people: they download licenses and deploy Hubs (Technical
 * contact) or look (Viewer); what costs money stays the distributor's, so no Owner or Billing admin.
 */
export const END_CUSTOMER_ROLES = ["technical_contact", "viewer"] as const satisfies readonly Role[];
export const CHOOSE_END_CUSTOMER_ROLE = "Choose Technical contact or Viewer.";

/** How far ahead the renewals view looks, in days: the next 30, 60 or 90. */
export const RENEWAL_WINDOWS = [30, 60, 90] as const;
export type RenewalWindow = (typeof RENEWAL_WINDOWS)[number];
export const RENEWALS_PER_PAGE = 20;

/** The window a `?within=` asks for; null for anything else (the page then redirects to the default). */
export function renewalWindowOf(value: string | null): RenewalWindow | null {
  if (value === null) return RENEWAL_WINDOWS[0];
  return RENEWAL_WINDOWS.find((days) => String(days) === value) ?? null;
}

/**
 * How a renewal names an end customer since moved to another distributor: the licenses bought for it stay the
 * buyer's, which still pays for their renewals, and no longer has the customer's page.
 */
export const movedCustomerName = (name: string) => `${name} (moved to another distributor)`;

/** The renewals view's address for a window and where its page starts, each left out when it is the default. */
export function renewalsHref(within: RenewalWindow, start: PageStart = null): string {
  const query = setPageStart(
    new URLSearchParams(within !== RENEWAL_WINDOWS[0] ? { within: String(within) } : {}),
    start,
  ).toString();
  return query ? `${customerUrls.renewals}?${query}` : customerUrls.renewals;
}

/** The address of the window's rows as CSV: all of them, so no start. */
export function renewalsCsvHref(within: RenewalWindow): string {
  return within !== RENEWAL_WINDOWS[0]
    ? `${customerUrls.renewals}.csv?within=${within}`
    : `${customerUrls.renewals}.csv`;
}

/** The customers list's address for a search and a page (each left out when it is the default). */
export function customersHref(search: string, page: number): string {
  const query = new URLSearchParams({
    ...(search ? { q: search } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  }).toString();
  return query ? `${CUSTOMERS_PATH}?${query}` : CUSTOMERS_PATH;
}

/** What the record keeps of an end customer, as its form and page show it. */
export interface CustomerRecord {
  name: string;
  /** ISO 3166 code, "" when not given. */
  country: string;
  address: PostalAddress | null;
  contactName: string;
  contactEmail: string;
}

/** An address on one line, its parts that were given. */
export function addressLine(address: PostalAddress | null, countryName?: string): string {
  const parts = address ? [address.line1, address.line2, address.city, address.state, address.zip] : [];
  return [...parts, countryName].filter((part): part is string => Boolean(part?.trim())).join(", ");
}

/** The prices a renewal is computed with: each plan's and add-on's price in cents per period, by id. */
export type PriceList = ReadonlyMap<string, number>;

/**
 * What a subscription's next renewal costs at list price: the plan for its users and each recurring add-on, in
 * cents. Coupons and credits are the provider's to apply when it charges; null when the price list lacks one of
 * its items (a retired plan), rather than a wrong figure.
 */
export function renewalAmount(
  subscription: { planId: string; planQuantity: number; addons: ItemQuantity[] },
  prices: PriceList,
): number | null {
  const items = [{ id: subscription.planId, quantity: subscription.planQuantity }, ...subscription.addons];
  let total = 0;
  for (const item of items) {
    const price = prices.get(item.id);
    if (price === undefined) return null;
    total += price * item.quantity;
  }
  return total;
}
