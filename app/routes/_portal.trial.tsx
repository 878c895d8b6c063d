import type { LinksFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Start GateKeeper Enterprise Trial" };
export const meta = pageMeta("Start GateKeeper Enterprise Trial");

/**
 * The trial pages: the chooser (the index), the wizards and a trial's progress, each a page of its own that checks
 * its own right (the chooser and the wizards: starting trials; the progress: any member). The layout reads
 * nothing, so that no page under it answers with what another's right would give.
 */
export default function Trial() {
  return <Outlet />;
}

export const ErrorBoundary = PageErrorBoundary;
