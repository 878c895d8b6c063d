/**
 * Rules of the new-subscription wizard: billing
 * cycles, reseller ids, hosting and its pairing with offsite access, support add-ons that exclude each
 * other, and where the user goes when the order is done. Pure, shared by the pages and the server.
 */
export type Cycle = "monthly" | "yearly";
export const CYCLES: Cycle[] = ["monthly", "yearly"];
export const CYCLE_LABELS: Record<Cycle, string> = {
  monthly: "Billed Monthly",
  yearly: "Billed Annually (save up to 20%)",
};

export const PLAN_TIERS = ["core", "advanced", "ultimate"] as const;
export type Tier = (typeof PLAN_TIERS)[number];
export const DEFAULT_TIER: Tier = "advanced";
export const TIER_NAMES: Record<Tier, string> = { core: "Core", advanced: "Advanced", ultimate: "Ultimate" };

const RESELLER_PREFIX = "reseller-";
const CYCLE_SUFFIX = /-(monthly|yearly)$/;

/** The id with its -monthly/-yearly suffix rewritten for the cycle; ids without a cycle stay as they are. */
export function withCycle(id: string, cycle: Cycle): string {
  return CYCLE_SUFFIX.test(id) ? id.replace(CYCLE_SUFFIX, `-${cycle}`) : id;
}

/** The list id without the reseller prefix. */
export function listId(id: string): string {
  return id.startsWith(RESELLER_PREFIX) ? id.slice(RESELLER_PREFIX.length) : id;
}

/** The id this customer buys: distributors buy the reseller- variant. */
export function idFor(id: string, resellerPrices: boolean): string {
  return resellerPrices ? `${RESELLER_PREFIX}${listId(id)}` : listId(id);
}

/** Names as customers see them: 'for resellers' is dropped. */
export function displayName(name: string): string {
  return name.replace(/\s*\(?for resellers\)?/gi, "").trim();
}

export function planId(tier: Tier, cycle: Cycle, resellerPrices: boolean): string {
  return idFor(`${tier}-${cycle}`, resellerPrices);
}

export function tierOf(id: string): Tier | null {
  return PLAN_TIERS.find((tier) => listId(id).startsWith(`${tier}-`)) ?? null;
}

export function cycleOf(id: string): Cycle | null {
  const match = CYCLE_SUFFIX.exec(id);
  return match ? (match[1] as Cycle) : null;
}

/** The Hub deployment the recurring license pays for (step 2, 'Select Your Preferred GateKeeper Hub Deployment'). */
export type Hosting = "cloud" | "on-premise";
const HOSTING_ADDON: Record<Hosting, string> = { cloud: "gatekeeper-cloud", "on-premise": "on-premise-install" };
const OFFSITE_ACCESS = "offsite-access";

export function hostingAddonId(hosting: Hosting, cycle: Cycle, resellerPrices: boolean): string {
  return idFor(`${HOSTING_ADDON[hosting]}-${cycle}`, resellerPrices);
}

export function offsiteAccessAddonId(cycle: Cycle, resellerPrices: boolean): string {
  return idFor(`${OFFSITE_ACCESS}-${cycle}`, resellerPrices);
}

/**
 * Offsite access is paired with hosting: it reaches an on-premise Hub from outside, which a cloud Hub
 * already is, so choosing cloud hosting clears it.
 */
export function offsiteAllowed(hosting: Hosting): boolean {
  return hosting === "on-premise";
}

/**
 * Support add-ons that exclude each other (on-site and virtual installation), and the ones tied to cloud
 * hosting: installation help is for cloud Hubs, since the on-premise Hub add-on includes its installation.
 */
const EXCLUSIVE: string[][] = [["on-site-installation", "virtual-installation"]];
const CLOUD_ONLY = new Set(["on-site-installation", "virtual-installation"]);

export function blockedMessage(dependentName: string): string {
  return `You cannot select this add-on because dependent add-on ${dependentName} is already selected. Uncheck ${dependentName} to allow this add-on.`;
}

export const CLOUD_ONLY_REASON = "Installation help is for cloud Hubs; the On-Premise Hub includes its installation.";

/** The selected add-on (by id) that excludes this one, or null. Reseller ids pair like list ids. */
export function excludedBy(addonId: string, selectedIds: string[]): string | null {
  const group = EXCLUSIVE.find((ids) => ids.includes(listId(addonId)));
  if (!group) return null;
  return selectedIds.find((id) => listId(id) !== listId(addonId) && group.includes(listId(id))) ?? null;
}

export function requiresCloud(addonId: string): boolean {
  return CLOUD_ONLY.has(listId(addonId));
}

/** Ticking a box sets the quantity to 1 or keeps a higher one; unticking sets 0. */
export function tickedQuantity(current: number, ticked: boolean): number {
  return ticked ? Math.max(1, current) : 0;
}

/** Where the success screen sends the user. */
export type OrderNextStep = "continue-cloud-deployment" | "deploy-cloud-hub" | "download-license";

export function orderNextStep(order: {
  origin: string | null;
  hosting: Hosting;
  offsiteAccess: boolean;
}): OrderNextStep {
  if (order.origin === "cloud-hubs") return "continue-cloud-deployment";
  if (order.hosting === "cloud" && !order.offsiteAccess) return "deploy-cloud-hub";
  return "download-license";
}
