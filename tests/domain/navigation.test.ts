import { describe, expect, it } from "vitest";
import {
  isActive,
  isSubmenu,
  isSubmenuOpen,
  sectionOf,
  SIDEBAR,
  sidebarFor,
  type NavSubmenu,
} from "~/domain/navigation";

const submenu = (label: string) =>
  SIDEBAR.find((entry): entry is NavSubmenu => isSubmenu(entry) && entry.label === label)!;
const allLinks = (entries = SIDEBAR) =>
  entries.flatMap((entry) => (isSubmenu(entry) ? entry.items : [entry])).map((item) => item.to);

describe("the sidebar", () => {
  it("lists every route of the portal shell, with the organization's team and activity", () => {
    expect(allLinks()).toEqual([
      "/home",
      "/store",
      "/hubs",
      "/licenses",
      "/quotes",
      "/customers",
      "/account",
      "/account/team",
      "/account/activity",
      "/software/hub",
      "/software/client",
      "/software/remote",
      "/software/passwordmanager",
      "/software/trident",
      "/software/allsoftware",
      "/setup/cloudHub",
      "/setup/onPremiseHub",
      "/docs/shared",
      "/docs/pre-installation-questionnaire",
      "/docs/evaluation",
      "/docs/case-studies",
      "/docs/manuals",
      "/docs/salesProcessEvaluation",
      "/docs/deal-registration",
      "/support",
    ]);
  });

  it("shows the two distributor documents only where the policy allows them", () => {
    const customer = (action: string) => action !== "documents.reseller";
    expect(allLinks(sidebarFor(() => true))).toContain("/docs/deal-registration");
    expect(allLinks(sidebarFor(() => true))).toContain("/docs/salesProcessEvaluation");
    expect(allLinks(sidebarFor(customer))).not.toContain("/docs/deal-registration");
    expect(allLinks(sidebarFor(customer))).not.toContain("/docs/salesProcessEvaluation");
    expect(allLinks(sidebarFor(customer))).toContain("/docs/manuals");
  });

  it("shows a distributor's customers only where the policy allows them", () => {
    expect(allLinks(sidebarFor(() => true))).toContain("/customers");
    expect(allLinks(sidebarFor((action) => action !== "customers.read"))).not.toContain("/customers");
  });

  it("shows only what the member's role may do", () => {
    const technical = (action: string) => !["purchase", "activity.view", "documents.reseller"].includes(action);
    expect(allLinks(sidebarFor(technical))).not.toContain("/store");
    expect(allLinks(sidebarFor(technical))).not.toContain("/account/activity");
    expect(allLinks(sidebarFor(technical))).toContain("/account/team");
    expect(allLinks(sidebarFor(() => true))).toContain("/store");
  });

  it("highlights the most specific item of the current path and of the pages below it", () => {
    const account = { label: "Account", to: "/account" };
    expect(isActive(account, "/account/cards/new")).toBe(true);
    expect(isActive(account, "/account/team")).toBe(false);
    expect(isActive({ label: "Team", to: "/account/team" }, "/account/team")).toBe(true);
    expect(sectionOf("/licenses/x/download")).toBe("/licenses");
    expect(sectionOf("/store/orders/job-of-another-organization")).toBe("/store");
    expect(sectionOf("/nowhere")).toBe("/home");
  });

  it("highlights the item of the current path and of the pages below it", () => {
    const hubs = { label: "Hub Deployments", to: "/hubs" };
    expect(isActive(hubs, "/hubs")).toBe(true);
    expect(isActive(hubs, "/hubs/new/url")).toBe(true);
    expect(isActive(hubs, "/hubsomething")).toBe(false);
    expect(isActive(hubs, "/home")).toBe(false);
  });

  it("opens the software, setup and docs submenus for their paths only", () => {
    expect(isSubmenuOpen(submenu("Software"), "/software/trident")).toBe(true);
    expect(isSubmenuOpen(submenu("Setup"), "/setup/cloudHub")).toBe(true);
    expect(isSubmenuOpen(submenu("Documentation"), "/docs/manuals")).toBe(true);
    expect(isSubmenuOpen(submenu("Software"), "/docs/manuals")).toBe(false);
    expect(isSubmenuOpen(submenu("Documentation"), "/home")).toBe(false);
  });
});
