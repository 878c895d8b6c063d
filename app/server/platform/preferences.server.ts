import { z } from "zod";
import { browserSettingCookie } from "./cookies.server";

/** Whether the user collapsed the sidebar; kept in a cookie so the server renders it that way on every page. */
const sidebarCookie = browserSettingCookie("gk_sidebar");

export async function isSidebarCollapsed(request: Request): Promise<boolean> {
  return (await sidebarCookie.parse(request.headers.get("Cookie"))) === "collapsed";
}

export function serializeSidebarChoice(choice: "open" | "collapsed"): Promise<string> {
  return sidebarCookie.serialize(choice);
}

const sidebarChoice = z.object({
  sidebar: z.enum(["open", "collapsed"]),
  redirectTo: z.string().optional(),
});

/** The sidebar toggle's post: the choice ("open" unless it is a known one) and where to go back to. */
export function readSidebarChoice(formData: FormData): { sidebar: "open" | "collapsed"; redirectTo: string | null } {
  const parsed = sidebarChoice.safeParse(Object.fromEntries(formData));
  return parsed.success
    ? { sidebar: parsed.data.sidebar, redirectTo: parsed.data.redirectTo ?? null }
    : { sidebar: "open", redirectTo: null };
}
