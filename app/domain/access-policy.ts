import type { MemberRole, OrganizationKind } from "~db/schema";

/**
 * The roles of an organization's members, and the access policy over them (POLICY, below). Pure and free of zod,
 * so the browser's shell reads the same table.
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

export const ORGANIZATION_KIND_NAMES: Record<OrganizationKind, string> = {
  customer: "Customer",
  distributor: "Distributor",
};

/**
 * Who asks: GateKeeper staff or not, and, when they work in an organization, their role there and its kind. A
 * GateKeeper administrator may be a member of no organization.
 */
export interface Subject {
  staff: boolean;
  emailVerified: boolean;
  member: {
    role: Role;
    kind: OrganizationKind;
    organizationName: string;
    /** The name of the distributor (reseller) that manages the organization; null for an organization of its own. */
    managedBy: string | null;
  } | null;
}

interface Right {
  /** The roles that may (every role for what the organization has, whoever of it asks). */
  roles: readonly Role[];
  /** The kinds of organization it is for; every kind when not named. */
  kinds?: readonly OrganizationKind[];
  /** GateKeeper staff only, whatever their organization and role. */
  staff?: true;
  /** What it is, to finish "Your role … cannot …". */
  what: string;
  /** It spends money or brings someone in: the person must have verified their email address first. */
  needsVerifiedEmail?: true;
  /** What a refusal says when the kind of organization or staff is what is missing. */
  onlyFor?: string;
  /**
   * The reseller that manages the organization does it, not the organization's own people (their licenses'
   * subscriptions, cards and invoices are the reseller's): refused to them with `managedRefusal`, whatever their role.
   */
  notWhenManaged?: true;
  /**
   * Only for the people of an end customer a reseller manages (what the reseller offers it): refused to anyone
   * else with `onlyFor`, whatever their role.
   */
  onlyWhenManaged?: true;
}

const EVERY_ROLE = ROLES;
const BILLING: readonly Role[] = ["owner", "billing_admin"];
const TECHNICAL: readonly Role[] = ["owner", "technical_contact"];
const DISTRIBUTOR: readonly OrganizationKind[] = ["distributor"];
const FOR_DISTRIBUTORS = "End customers are only for GateKeeper distributors.";

/**
 * The access policy: who may do what, by the member's role, the kind of their organization (a customer, or a
 * distributor: a reseller) and whether they are GateKeeper staff. Every page and action is checked against it on
 * the server (a forbidden action is 403 with its reason, from `refusal`), and the shell and buttons follow it.
 * Reading what every role reads (licenses, Hubs, orders, the team) needs only membership.
 */
export const POLICY = {
  /** New subscriptions (the Store's wizard, and an order's Try again). */
  purchase: { roles: BILLING, what: "buy licenses", needsVerifiedEmail: true, notWhenManaged: true },
  /** The update wizard: more users or a higher tier, charged at once. */
  "licenses.update": { roles: BILLING, what: "change licenses", needsVerifiedEmail: true, notWhenManaged: true },
  /** Cards, billing profile and addresses, and the invoices. */
  "billing.manage": { roles: BILLING, what: "see or change cards, billing details and invoices", notWhenManaged: true },
  /** Paying an unpaid invoice (a renewal that could not be charged) with a card. */
  "invoices.pay": { roles: BILLING, what: "pay invoices", notWhenManaged: true },
  /** Correcting an issued invoice's company, address, VAT number or PO number (a new revision of it). */
  "invoices.correct": { roles: BILLING, what: "correct invoices", notWhenManaged: true },
  /** Turning a subscription's auto-renew off or on. */
  "licenses.auto_renew": { roles: BILLING, what: "turn auto-renew off or on", notWhenManaged: true },
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
  /** A distributor's purchases, updates and trial hardware are priced from the reseller price list. */
  "prices.reseller": {
    roles: EVERY_ROLE,
    kinds: DISTRIBUTOR,
    what: "buy at reseller prices",
    onlyFor: "Reseller prices are only for GateKeeper distributors.",
  },
  /** A distributor starts trials for its customers: any number of them, where a customer has one. */
  "trials.unlimited": {
    roles: EVERY_ROLE,
    kinds: DISTRIBUTOR,
    what: "start any number of trials",
    onlyFor: "Any number of trials is only for GateKeeper distributors.",
  },
  /** The documents for resellers (sales process, deal registration). */
  "documents.reseller": {
    roles: EVERY_ROLE,
    kinds: DISTRIBUTOR,
    what: "read the documents for distributors",
    onlyFor: "This document is only for GateKeeper distributors.",
  },
  /** A distributor's end customers: the list, and each one's licenses, Hubs, orders and renewals (/customers). */
  "customers.read": {
    roles: ["owner", "billing_admin", "technical_contact"],
    kinds: DISTRIBUTOR,
    what: "see end customers",
    onlyFor: FOR_DISTRIBUTORS,
  },
  /** Adding an end customer and changing its record. */
  "customers.manage": {
    roles: BILLING,
    kinds: DISTRIBUTOR,
    what: "add or change end customers",
    onlyFor: FOR_DISTRIBUTORS,
  },
  /**
   * Every renewal of the licenses a distributor bought for its customers, in one view and as CSV: dates, amounts
   * and the card they will be charged to, so the billing roles'.
   */
  "customers.renewals": {
    roles: BILLING,
    kinds: DISTRIBUTOR,
    what: "see every renewal of the licenses bought for its customers",
    onlyFor: FOR_DISTRIBUTORS,
  },
  /**
   * Buying a license for an end customer (the Store's wizard with `?customer=` on every step): the distributor
   * pays, at its prices, and the license is the customer's.
   */
  "customers.purchase": {
    roles: BILLING,
    kinds: DISTRIBUTOR,
    what: "buy licenses for end customers",
    needsVerifiedEmail: true,
    onlyFor: FOR_DISTRIBUTORS,
  },
  /**
   * The people of a distributor's end customer: inviting them (as Technical contact or Viewer, into the end
   * customer's organization) and removing them, from the customer's page.
   */
  "customers.people": {
    roles: BILLING,
    kinds: DISTRIBUTOR,
    what: "invite or remove the people of end customers",
    needsVerifiedEmail: true,
    onlyFor: FOR_DISTRIBUTORS,
  },
  /**
   * Moving an end customer to another distributor (its managed_by): the customer's distributor is GateKeeper's
   * agreement with both, so no member of either changes it.
   */
  "customers.move": {
    roles: [],
    staff: true,
    what: "move end customers to another distributor",
    onlyFor: "Moving an end customer to another distributor is only for GateKeeper administrators.",
  },
  /**
   * Starting a trial for an end customer (the trial wizards with `?customer=` on every step): the trial's license,
   * and its cloud Hub, are the customer's; the distributor's trial rules apply.
   */
  "customers.trials": {
    roles: TECHNICAL,
    kinds: DISTRIBUTOR,
    what: "start trials for end customers",
    needsVerifiedEmail: true,
    onlyFor: FOR_DISTRIBUTORS,
  },
  /**
   * Quotes: made (from the Store's wizard, for the organization or, with `?customer=`, for an end customer), sent,
   * withdrawn, copied and ordered by the roles that buy. Every member reads them, and an end customer's people
   * read those made for it; its reseller makes them.
   */
  "quotes.manage": {
    roles: BILLING,
    what: "make, send, withdraw or order quotes",
    needsVerifiedEmail: true,
    notWhenManaged: true,
  },
  /**
   * Accepting, in the portal, a quote its reseller made for the end customer and let it accept there (a choice on
   * the quote); the end customer's other people read it only.
   */
  "quotes.accept": {
    roles: ["technical_contact"],
    what: "accept quotes",
    needsVerifiedEmail: true,
    onlyWhenManaged: true,
    onlyFor: "Quotes are accepted in the portal only by the people of a distributor's end customer.",
  },
  /** The administration pages: every customer's account, jobs that need attention, the outbox, the time machine. */
  "staff.admin": {
    roles: [],
    staff: true,
    what: "use the administration pages",
    onlyFor: "This page is only for GateKeeper administrators.",
  },
} as const satisfies Record<string, Right>;

export type Action = keyof typeof POLICY;
export const ACTIONS = Object.keys(POLICY) as Action[];

const rightOf = (action: Action): Right => POLICY[action];

/** Whether what the action is for (staff, a kind of organization) holds for the subject, its role aside. */
function isFor(subject: Subject, right: Right): boolean {
  if (right.staff) return subject.staff;
  if (!subject.member) return false;
  if (right.onlyWhenManaged && !subject.member.managedBy) return false;
  return !right.kinds || right.kinds.includes(subject.member.kind);
}

/**
 * Whether an organization of this kind has the right, whoever of it asks: for the rights every role of an
 * organization shares (its price list, its trials), read where no member is at hand (a job, an estimate).
 */
export function kindHas(kind: OrganizationKind, action: Action): boolean {
  const right = rightOf(action);
  return right.roles.length === EVERY_ROLE.length && !right.staff && (!right.kinds || right.kinds.includes(kind));
}

/** Whether an organization buys at reseller prices (its price list, for estimates, orders and trial hardware). */
export const buysAtResellerPrices = (organization: { customerType: OrganizationKind }) =>
  kindHas(organization.customerType, "prices.reseller");

/** The roles that may, as words: "an Owner or a Billing admin". */
function whoMay(action: Action): string {
  const names = rightOf(action).roles.map(
    (role) => `${/^[AEIOU]/.test(ROLE_NAMES[role]) ? "an" : "a"} ${ROLE_NAMES[role]}`,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names[0];
}

/**
 * What a managed end customer's people are told where their reseller acts for them (buying, changing a license,
 * its auto-renew, cards and invoices); null for an organization of its own. It names the reseller, so they know
 * whom to ask: their organization has no Owner or Billing admin to ask.
 */
export function managedRefusal(subject: Subject): string | null {
  const managedBy = subject.member?.managedBy;
  return managedBy ? `Managed by ${managedBy}. Contact them to change this license.` : null;
}

/** Why the subject may not (null when they may): what the 403 page and a disabled button's note say. */
export function refusal(subject: Subject, action: Action): string | null {
  const right = rightOf(action);
  if (!isFor(subject, right)) return right.onlyFor ?? NO_ORGANIZATION;
  // Before the role: whatever their role, the reseller is whom to ask.
  const managed = right.notWhenManaged ? managedRefusal(subject) : null;
  if (managed) return managed;
  const member = subject.member;
  if (!right.staff && member && !right.roles.includes(member.role)) {
    return `Your role in ${member.organizationName} is ${ROLE_NAMES[member.role]}, which cannot ${right.what}. Ask ${whoMay(action)} of ${member.organizationName}.`;
  }
  if (right.needsVerifiedEmail && !subject.emailVerified) return VERIFY_EMAIL_FIRST;
  return null;
}

export const NO_ORGANIZATION =
  "You are not a member of any organization. Ask an Owner of your organization to invite you again.";

export const VERIFY_EMAIL_FIRST =
  "Verify your email address first: open the link we sent you. Until then you can look around, but not buy, start a trial or invite people.";
