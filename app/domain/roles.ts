import type { MemberRole } from "~db/schema";

/**
 * What each member of an organization may do: the one table of role × action every page and action is checked
 * against on the server (a forbidden action is 403 with its reason), and that the sidebar and buttons follow.
 * Pure and free of zod, so the browser's shell reads the same table.
 *
 * - Owner: everything, members and roles included; an organization always keeps at least one.
 * - Billing admin: purchases, license updates, auto-renew, cards, billing profile and addresses, invoices.
 * - Technical contact: licenses (download), Hubs (deploy, view), trials; no payments, no card data.
 * - Viewer: reads everything a Technical contact reads; changes nothing (a license file installs a license on a
 *   Hub, so it is the Technical contact's to take, not a Viewer's).
 */
export const ROLES = ["owner", "billing_admin", "technical_contact", "viewer"] as const satisfies readonly MemberRole[];
export type Role = (typeof ROLES)[number];

export const ROLE_NAMES: Record<Role, string> = {
  owner: "Owner",
  billing_admin: "Billing admin",
  technical_contact: "Technical contact",
  viewer: "Viewer",
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything, including members and their roles.",
  billing_admin: "Purchases, license updates, auto-renew, cards, billing profile and addresses, invoices.",
  technical_contact: "Downloads licenses, deploys and views Hubs, starts trials. No payments, no card data.",
  viewer: "Sees licenses, Hubs and orders. Changes nothing.",
};

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

interface Permission {
  /** The roles that may do it. */
  roles: readonly Role[];
  /** What it is, to finish "Your role … cannot …". */
  what: string;
  /** It spends money or brings someone in: the person must have verified their email address first. */
  needsVerifiedEmail?: true;
}

const BILLING: readonly Role[] = ["owner", "billing_admin"];
const TECHNICAL: readonly Role[] = ["owner", "technical_contact"];

/** The table. Reading anything a Viewer reads (licenses, Hubs, orders, the team) needs only membership. */
export const PERMISSIONS = {
  /** New subscriptions (the Store's wizard, and an order's Try again). */
  purchase: { roles: BILLING, what: "buy licenses", needsVerifiedEmail: true },
  /** The update wizard: more users or a higher tier, charged at once. */
  "licenses.update": { roles: BILLING, what: "change licenses", needsVerifiedEmail: true },
  /** Cards, billing profile and addresses, and the invoices. */
  "billing.manage": { roles: BILLING, what: "see or change cards, billing details and invoices" },
  /** Paying an unpaid invoice (a renewal that could not be charged) with a card. */
  "invoices.pay": { roles: BILLING, what: "pay invoices" },
  /** Turning a subscription's auto-renew off or on. */
  "licenses.auto_renew": { roles: BILLING, what: "turn auto-renew off or on" },
  "licenses.download": {
    roles: ["owner", "billing_admin", "technical_contact"],
    what: "download license files",
  },
  /** Deploying a cloud Hub, and signing in to one as its administrator. */
  "hubs.deploy": { roles: TECHNICAL, what: "deploy Hubs or sign in to them" },
  "trials.start": { roles: TECHNICAL, what: "start trials", needsVerifiedEmail: true },
  /** Invitations, roles, removing members. */
  "members.manage": { roles: ["owner"], what: "invite people or change members", needsVerifiedEmail: true },
  "activity.view": { roles: BILLING, what: "see the activity log" },
} as const satisfies Record<string, Permission>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export function can(role: Role, action: Action): boolean {
  return (PERMISSIONS[action].roles as readonly Role[]).includes(role);
}

export const needsVerifiedEmail = (action: Action): boolean =>
  (PERMISSIONS[action] as Permission).needsVerifiedEmail === true;

/** The roles that may, as words: "an Owner or a Billing admin". */
function whoMay(action: Action): string {
  const names = PERMISSIONS[action].roles.map(
    (role) => `${/^[AEIOU]/.test(ROLE_NAMES[role]) ? "an" : "a"} ${ROLE_NAMES[role]}`,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names[0];
}

/** Why this role may not: what the 403 page and a disabled button's note say. */
export function forbiddenReason(role: Role, action: Action, organizationName: string): string {
  return `Your role in ${organizationName} is ${ROLE_NAMES[role]}, which cannot ${PERMISSIONS[action].what}. Ask ${whoMay(action)} of ${organizationName}.`;
}

export const VERIFY_EMAIL_FIRST =
  "Verify your email address first: open the link we sent you. Until then you can look around, but not buy, start a trial or invite people.";
