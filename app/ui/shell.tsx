import { Form, useFetcher, useLocation } from "@remix-run/react";
import { Link } from "~/ui/link";
import type { ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isActive, isSubmenu, isSubmenuOpen, sidebarFor, type NavLinkItem } from "~/domain/navigation";
import type { Action } from "~/domain/access-policy";

interface ShellOrganization {
  id: string;
  name: string;
  /** The member's role there, as a name. */
  role: string;
}

export interface ShellUser {
  firstName: string;
  lastName: string;
  email: string;
  /** Until verified, buying, trials and invitations wait: the shell says so on every page. */
  emailUnverified: boolean;
  /** The organization the person works in; null for a member of none (an administrator may be). */
  organization: ShellOrganization | null;
  /** The person's other organizations, to switch to. */
  otherOrganizations: ShellOrganization[];
  /** What the access policy allows the person there (app/domain/access-policy.ts): the shell shows only that. */
  allowed: Action[];
  canStartTrial: boolean;
}

interface ShellProps {
  user: ShellUser;
  title: string;
  sidebarCollapsed: boolean;
  children: ReactNode;
}

/**
 * ☰ (U+2630) as a character reference: one character beyond Latin-1 on every page made V8 hold every rendered
 * page as a two-byte string, twice the size in each copy the server makes of it (decision 141).
 */
const MENU_ICON = { __html: "&#9776;" };

/**
 * The portal frame: fixed header, collapsible 250px sidebar, footer. It works without JavaScript:
 * submenus are <details>, collapsing the sidebar posts a form that stores the choice in a cookie,
 * and on narrow screens a checkbox, unseen over the burger, opens the sidebar over the page: a tap and the keyboard
 * (Tab, then Space) both reach it, and CSS alone shows the sidebar while it is checked.
 * Plain elements styled by app/styles/shell.css rather than Mantine components: the frame is on every
 * page, and Mantine's style machinery cost a fifth of a page's render time under load.
 */
export function PortalShell({ user, title, sidebarCollapsed, children }: ShellProps) {
  const location = useLocation();
  const sidebarPreference = useFetcher();
  const pendingChoice = sidebarPreference.formData?.get("sidebar");
  const collapsed = pendingChoice ? pendingChoice === "collapsed" : sidebarCollapsed;
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="gk-shell" data-sidebar={collapsed ? "collapsed" : "open"}>
      <header className="gk-header">
        <div className="gk-header-start">
          <label className="gk-burger">
            <input
              type="checkbox"
              id="gk-nav-toggle"
              className="gk-nav-toggle"
              aria-label="Open or close the menu"
              aria-controls="gk-sidebar"
            />
            <span aria-hidden="true" dangerouslySetInnerHTML={MENU_ICON} />
          </label>
          <sidebarPreference.Form method="post" action="/preferences/sidebar" className="gk-collapse-form">
            <AuthenticityTokenInput name="csrf" />
            <input type="hidden" name="redirectTo" value={here} />
            <button
              type="submit"
              name="sidebar"
              value={collapsed ? "open" : "collapsed"}
              className="gk-collapse-button"
              aria-label={collapsed ? "Show the sidebar" : "Hide the sidebar"}
              aria-expanded={!collapsed}
              aria-controls="gk-sidebar"
            >
              <span aria-hidden="true">{collapsed ? "»" : "«"}</span>
            </button>
          </sidebarPreference.Form>
          <h1 className="gk-page-title">{title}</h1>
        </div>
        <div className="gk-header-end">
          {user.canStartTrial ? (
            <Link to="/trial" className="gk-button" data-variant="filled">
              Start GateKeeper Enterprise Trial
            </Link>
          ) : null}
          {user.allowed.includes("staff.admin") ? (
            <Link to="/admin/customers" className="gk-button" data-variant="light">
              Go to admin portal
            </Link>
          ) : null}
          <OrganizationMenu user={user} here={here} />
          <UserMenu user={user} />
        </div>
      </header>

      <nav id="gk-sidebar" className="gk-sidebar" aria-label="Portal">
        <div className="gk-sidebar-top">
          <Link to="/home" className="gk-brand">
            GateKeeper Portal
          </Link>
          {/* A second target for a tap, over where the open sidebar covers the burger; the keyboard's is the checkbox. */}
          <label htmlFor="gk-nav-toggle" className="gk-burger gk-burger-close" aria-hidden="true">
            ×
          </label>
        </div>
        <ul className="gk-nav-list">
          {sidebarFor((action) => user.allowed.includes(action)).map((entry) =>
            isSubmenu(entry) ? (
              <li key={entry.label}>
                <details className="gk-submenu" open={isSubmenuOpen(entry, location.pathname)}>
                  <summary>{entry.label}</summary>
                  <ul className="gk-nav-list">
                    {entry.items.map((item) => (
                      <SidebarLink key={item.to} item={item} pathname={location.pathname} nested />
                    ))}
                  </ul>
                </details>
              </li>
            ) : (
              <SidebarLink key={entry.to} item={entry} pathname={location.pathname} />
            ),
          )}
        </ul>
      </nav>

      <main className="gk-main" id="main">
        {user.emailUnverified ? <VerifyEmailNotice email={user.email} here={here} /> : null}
        {children}
      </main>

      <footer className="gk-footer">
        <Link to="/support" className="gk-link">
          Support
        </Link>
        <a href="https://gkaccess.com" className="gk-link" rel="noopener noreferrer">
          gkaccess.com
        </a>
        <span className="gk-dimmed">© {new Date().getFullYear()} GateKeeper</span>
      </footer>
    </div>
  );
}

function SidebarLink({ item, pathname, nested = false }: { item: NavLinkItem; pathname: string; nested?: boolean }) {
  const active = isActive(item, pathname);
  return (
    <li>
      <Link
        to={item.to}
        className={nested ? "gk-nav-link gk-nav-nested" : "gk-nav-link"}
        data-active={active || undefined}
        aria-current={active ? "page" : undefined}
      >
        {item.label}
      </Link>
    </li>
  );
}

/**
 * The organization the person works in, and the others they belong to, each a button of one form: the choice is
 * kept in the server-side session, so it holds in this browser until switched again. Works without JavaScript.
 */
function OrganizationMenu({ user, here }: { user: ShellUser; here: string }) {
  const { organization, otherOrganizations } = user;
  if (!organization) return null;
  if (otherOrganizations.length === 0) {
    return (
      <span className="gk-organization-name">
        {organization.name} <span className="gk-dimmed">· {organization.role}</span>
      </span>
    );
  }
  return (
    <details className="gk-user-menu">
      <summary>
        <span className="gk-visually-hidden">Organization: </span>
        {organization.name} <span className="gk-dimmed">· {organization.role}</span>
      </summary>
      <Form method="post" action="/organizations/switch" className="gk-user-menu-panel">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="redirectTo" value={here} />
        <p className="gk-dimmed">Switch to another organization:</p>
        {otherOrganizations.map((other) => (
          <button
            key={other.id}
            type="submit"
            name="organizationId"
            value={other.id}
            className="gk-link gk-link-button"
          >
            {other.name} ({other.role})
          </button>
        ))}
      </Form>
    </details>
  );
}

/** Until the address is verified, every page says what waits for it and offers the link again. */
function VerifyEmailNotice({ email, here }: { email: string; here: string }) {
  return (
    <div className="gk-notice" role="status">
      <p>
        <strong>Verify your email address.</strong> We sent a link to {email}. Until you open it you can look around,
        but not buy, start a trial or invite people.
      </p>
      <Form method="post" action="/verify-email">
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className="gk-link gk-link-button">
          Send the link again
        </button>
      </Form>
    </div>
  );
}

function UserMenu({ user }: { user: ShellUser }) {
  return (
    <details className="gk-user-menu">
      <summary>
        <span className="gk-user-name">
          {user.firstName} {user.lastName}
        </span>
      </summary>
      <div className="gk-user-menu-panel">
        <p className="gk-dimmed gk-user-email">{user.email}</p>
        <Link to="/account" className="gk-link">
          Account
        </Link>
        <Form method="post" action="/logout">
          <AuthenticityTokenInput name="csrf" />
          <button type="submit" className="gk-link gk-link-button">
            Sign out
          </button>
        </Form>
      </div>
    </details>
  );
}
