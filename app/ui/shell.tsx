import { Anchor, Button, Group, NavLink, Text, Title, UnstyledButton } from "@mantine/core";
import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { isActive, isSubmenu, isSubmenuOpen, sidebarFor, type NavLinkItem } from "~/domain/navigation";

export interface ShellUser {
  firstName: string;
  lastName: string;
  email: string;
  isDistributor: boolean;
  isGKAdmin: boolean;
  canStartTrial: boolean;
}

interface ShellProps {
  user: ShellUser;
  title: string;
  sidebarCollapsed: boolean;
  children: ReactNode;
}

export const SIDEBAR_WIDTH = 250;

/**
 * The portal frame: fixed header, collapsible 250px sidebar, footer. It works without JavaScript:
 * submenus are <details>, collapsing the sidebar posts a form that stores the choice in a cookie,
 * and on narrow screens a CSS-only checkbox opens the sidebar over the page.
 */
export function PortalShell({ user, title, sidebarCollapsed, children }: ShellProps) {
  const location = useLocation();
  const sidebarPreference = useFetcher();
  const pendingChoice = sidebarPreference.formData?.get("sidebar");
  const collapsed = pendingChoice ? pendingChoice === "collapsed" : sidebarCollapsed;
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="gk-shell" data-sidebar={collapsed ? "collapsed" : "open"}>
      <input type="checkbox" id="gk-nav-toggle" className="gk-nav-toggle" aria-hidden="true" tabIndex={-1} />
      <header className="gk-header">
        <Group gap="sm" wrap="nowrap" className="gk-header-start">
          <label htmlFor="gk-nav-toggle" className="gk-burger">
            <span className="gk-visually-hidden">Open or close the menu</span>
            <span aria-hidden="true">☰</span>
          </label>
          <sidebarPreference.Form method="post" action="/preferences/sidebar" className="gk-collapse-form">
            <AuthenticityTokenInput name="csrf" />
            <input type="hidden" name="redirectTo" value={here} />
            <UnstyledButton
              type="submit"
              name="sidebar"
              value={collapsed ? "open" : "collapsed"}
              className="gk-collapse-button"
              aria-label={collapsed ? "Show the sidebar" : "Hide the sidebar"}
              aria-expanded={!collapsed}
              aria-controls="gk-sidebar"
            >
              <span aria-hidden="true">{collapsed ? "»" : "«"}</span>
            </UnstyledButton>
          </sidebarPreference.Form>
          <Title order={1} className="gk-page-title">
            {title}
          </Title>
        </Group>
        <Group gap="sm" wrap="nowrap" className="gk-header-end">
          {user.canStartTrial ? (
            <Button component={Link} to="/trial" size="sm" variant="filled">
              Start GateKeeper Enterprise Trial
            </Button>
          ) : null}
          {user.isGKAdmin ? (
            <Button component={Link} to="/admin/customers" size="sm" variant="light">
              Go to admin portal
            </Button>
          ) : null}
          <UserMenu user={user} />
        </Group>
      </header>

      <nav id="gk-sidebar" className="gk-sidebar" aria-label="Portal">
        <Group justify="space-between" wrap="nowrap">
          <Link to="/home" className="gk-brand">
            GateKeeper Portal
          </Link>
          <label htmlFor="gk-nav-toggle" className="gk-burger gk-burger-close">
            <span className="gk-visually-hidden">Close the menu</span>
            <span aria-hidden="true">×</span>
          </label>
        </Group>
        <ul className="gk-nav-list">
          {sidebarFor(user.isDistributor).map((entry) =>
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
        {children}
      </main>

      <footer className="gk-footer">
        <Group gap="lg" justify="center">
          <Anchor component={Link} to="/support" size="sm">
            Support
          </Anchor>
          <Anchor href="https://gkaccess.com" size="sm" rel="noopener noreferrer">
            gkaccess.com
          </Anchor>
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} GateKeeper
          </Text>
        </Group>
      </footer>
    </div>
  );
}

function SidebarLink({ item, pathname, nested = false }: { item: NavLinkItem; pathname: string; nested?: boolean }) {
  const active = isActive(item, pathname);
  return (
    <li>
      <NavLink
        component={Link}
        to={item.to}
        label={item.label}
        active={active}
        aria-current={active ? "page" : undefined}
        className={nested ? "gk-nav-nested" : undefined}
      />
    </li>
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
        <Text size="sm" c="dimmed" className="gk-user-email">
          {user.email}
        </Text>
        <Anchor component={Link} to="/account" size="sm">
          Account
        </Anchor>
        <Form method="post" action="/logout">
          <AuthenticityTokenInput name="csrf" />
          <Button type="submit" variant="subtle" size="compact-sm" px={0}>
            Sign out
          </Button>
        </Form>
      </div>
    </details>
  );
}
