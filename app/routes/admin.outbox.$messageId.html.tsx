import { requireAdmin } from "~/server/accounts/access.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { outboxMessage } from "~/server/mail/index.server";

/**
 * A kept message's HTML part, as its reader's mail program would get it. It is served under a policy that runs
 * and loads nothing (like the portal's files), so a message, whatever it holds, cannot act as a page of the
 * portal; its links work.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = Number(params.messageId);
  const message = Number.isSafeInteger(id) ? await outboxMessage(id) : null;
  if (!message) throw new Response("No such message.", { status: 404 });
  return new Response(message.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
      "Cache-Control": "no-store",
    },
  });
}
