/**
 * The portal sidebar: its items, which one matches a path, and which
 * submenu opens for it. Pure so that the server render and the browser agree.
 */
export interface NavLinkItem {
  label: string;
  to: string;
  /** Only distributors (resellers) see it. */
  distributorOnly?: boolean;
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
  { label: "Store", to: "/store" },
  { label: "Hub Deployments", to: "/hubs" },
  { label: "Licenses", to: "/licenses" },
  { label: "Account", to: "/account" },
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
      { label: "Sales Process Evaluation", to: "/docs/salesProcessEvaluation", distributorOnly: true },
      { label: "Deal Registration", to: "/docs/deal-registration", distributorOnly: true },
    ],
  },
  { label: "Support", to: "/support" },
];

/** The sidebar as this user may see it: distributor-only documents removed for everyone else. */
export function sidebarFor(isDistributor: boolean): NavEntry[] {
  return SIDEBAR.map((entry) =>
    isSubmenu(entry)
      ? { ...entry, items: entry.items.filter((item) => isDistributor || !item.distributorOnly) }
      : entry,
  ).filter((entry) => !isSubmenu(entry) || entry.items.length > 0);
}

const withinPath = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);

/** The item to highlight for a path: its own entry, or the entry of the section it sits in. */
export function isActive(item: NavLinkItem, pathname: string): boolean {
  return withinPath(pathname, item.to);
}

/** Software, setup and docs paths open their parent submenu. */
export function isSubmenuOpen(submenu: NavSubmenu, pathname: string): boolean {
  return withinPath(pathname, submenu.prefix);
}
