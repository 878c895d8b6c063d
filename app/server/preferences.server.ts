import { createCookie } from "@remix-run/node";

/** Whether the user collapsed the sidebar; kept in a cookie so the server renders it that way on every page. */
const sidebarCookie = createCookie("gk_sidebar", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function isSidebarCollapsed(request: Request): Promise<boolean> {
  return (await sidebarCookie.parse(request.headers.get("Cookie"))) === "collapsed";
}

export function serializeSidebarChoice(choice: "open" | "collapsed"): Promise<string> {
  return sidebarCookie.serialize(choice);
}
