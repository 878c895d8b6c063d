import { useNavigate } from "@remix-run/react";
import { forwardRef, useEffect, type AnchorHTMLAttributes } from "react";

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  /** A path within the portal, absolute (as every portal link is), with its search and hash if any. */
  to: string;
  /** Replace the current history entry instead of adding one (a wizard's Cancel). */
  replace?: boolean;
  /** Keep the page where it is scrolled to (a dialog over it, a filter of its table). */
  preventScrollReset?: boolean;
  /** Load the target as a new document (a page served outside the portal's routes). */
  reloadDocument?: boolean;
};

/**
 * A link within the portal, drawn as a plain `<a>` (decision 131). Remix's `<Link>` runs about ten hooks per
 * link to resolve its href and build its click handler, and rendering a page's thirty of them was a fifth of
 * the server's time for `/home`. The few options the portal uses become data attributes, and one listener in
 * the root (`LinkNavigation`) makes a plain click on any of these links a client-side navigation. Before
 * hydration, and without JavaScript, the link simply loads its page.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, preventScrollReset, reloadDocument, children, ...anchor },
  ref,
) {
  return (
    <a
      ref={ref}
      href={to}
      // Remix's route discovery fetches the routes of every a[data-discover] on screen; LinkNavigation
      // navigates exactly those links, as Remix's <Link> does.
      data-discover={reloadDocument ? undefined : "true"}
      data-replace={replace ? "" : undefined}
      data-prevent-scroll-reset={preventScrollReset ? "" : undefined}
      {...anchor}
    >
      {children}
    </a>
  );
});

/** The portal link a click should navigate within the page, as React Router's link click handler decides. */
function linkToNavigate(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
    return null;
  const link = event.target instanceof Element ? event.target.closest("a[data-discover]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return null;
  if ((link.target !== "" && link.target !== "_self") || link.hasAttribute("download")) return null;
  return link;
}

/** Turns a plain click on a portal link into a client-side navigation; rendered once, in the root. */
export function LinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function navigateOnClick(event: MouseEvent) {
      const link = linkToNavigate(event);
      if (!link) return;
      event.preventDefault();
      const to = link.pathname + link.search + link.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, {
        // Like Remix's <Link>: a link to the page on screen replaces its history entry.
        replace: link.hasAttribute("data-replace") || to === here,
        preventScrollReset: link.hasAttribute("data-prevent-scroll-reset"),
      });
    }
    document.addEventListener("click", navigateOnClick);
    // Until this runs (the page hydrating), a click loads the page as a plain link would; tests wait for the mark.
    document.documentElement.dataset.linkNavigation = "on";
    return () => {
      document.removeEventListener("click", navigateOnClick);
      delete document.documentElement.dataset.linkNavigation;
    };
  }, [navigate]);
  return null;
}
