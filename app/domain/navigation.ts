import type { Action } from "./access-policy";

/**
 * The portal sidebar: its items, which one matches a path, and which
 * submenu opens for it. Pure so that the server render and the browser agree.
 */
export interface NavLinkItem {
  label: string;
  to: string;
  /** Only members the access policy allows this see it (the page itself refuses the others with 403). */
  needs?: Action;
}

export interface NavSubmenu {
  label: string;
  /** Paths under this prefix open the submenu. */
  prefix: string;
  items: NavLinkItem[];
}

export type NavEntry = NavLinkItem | NavSubmenu;

export const isSubmenu = (entry: NavEntry): entry is NavSubmenu => "items" in entry;

export const SIDEBAR: NavEntry[] = [
  { label: "Home", to: "/home" },
  { label: "Store", to: "/store", needs: "purchase" },
  { label: "Hub Deployments", to: "/hubs" },
  { label: "Licenses", to: "/licenses" },
  { label: "Quotes", to: "/quotes" },
  { label: "Customers", to: "/customers", needs: "customers.read" },
  { label: "Account", to: "/account" },
  { label: "Team", to: "/account/team" },
  { label: "Activity", to: "/account/activity", needs: "activity.view" },
  {
    label: "Software",
    prefix: "/software",
    items: [
      { label: "GateKeeper Hub", to: "/software/hub" },
      { label: "GateKeeper Client", to: "/software/client" },
      { label: "GateKeeper Remote", to: "/software/remote" },
      { label: "Password Manager", to: "/software/passwordmanager" },
      { label: "Trident", to: "/software/trident" },
      { label: "All Software", to: "/software/allsoftware" },
    ],
  },
  {
    label: "Setup",
    prefix: "/setup",
    items: [
      { label: "Cloud Hub Setup", to: "/setup/cloudHub" },
      { label: "On-Premise Hub Setup", to: "/setup/onPremiseHub" },
    ],
  },
  {
    label: "Documentation",
    prefix: "/docs",
    items: [
      { label: "Shared Documents", to: "/docs/shared" },
      { label: "Pre-Installation Questionnaire", to: "/docs/pre-installation-questionnaire" },
      { label: "Evaluation Guide", to: "/docs/evaluation" },
      { label: "Case Studies", to: "/docs/case-studies" },
      { label: "Manuals", to: "/docs/manuals" },
      { label: "Sales Process Evaluation", to: "/docs/salesProcessEvaluation", needs: "documents.reseller" },
      { label: "Deal Registration", to: "/docs/deal-registration", needs: "documents.reseller" },
    ],
  },
  { label: "Support", to: "/support" },
];

/** The sidebar as this member may see it: what the access policy does not allow them (`may`) removed. */
export function sidebarFor(may: (action: Action) => boolean): NavEntry[] {
  const shown = (item: NavLinkItem) => !item.needs || may(item.needs);
  return SIDEBAR.map((entry) => (isSubmenu(entry) ? { ...entry, items: entry.items.filter(shown) } : entry)).filter(
    (entry) => (isSubmenu(entry) ? entry.items.length > 0 : shown(entry)),
  );
}

const withinPath = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);

/**
 * The item to highlight for a path: its own entry, or the entry of the section it sits in (the most specific
 * one: /account/team is Team's, not Account's).
 */
export function isActive(item: NavLinkItem, pathname: string): boolean {
  if (!withinPath(pathname, item.to)) return false;
  return !SIDEBAR.some(
    (entry) => !isSubmenu(entry) && entry.to.length > item.to.length && withinPath(pathname, entry.to),
  );
}

/**
 * The sidebar's page a path belongs to (/licenses for /licenses/7/download), or /home: where switching to another
 * organization leads, since ids in the path were the other organization's.
 */
export function sectionOf(pathname: string): string {
  const items = SIDEBAR.flatMap((entry) => (isSubmenu(entry) ? entry.items : [entry]));
  return items.find((item) => isActive(item, pathname))?.to ?? "/home";
}

/** Software, setup and docs paths open their parent submenu. */
export function isSubmenuOpen(submenu: NavSubmenu, pathname: string): boolean {
  return withinPath(pathname, submenu.prefix);
}
