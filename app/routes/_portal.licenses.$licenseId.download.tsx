import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMember } from "~/server/accounts/access.server";
import { licenseFileFor } from "~/server/subscriptions/licenses.server";

/** The signed license file as an attachment; another account's license, like an unknown one, is 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "licenses.download");
  const file = await licenseFileFor(member.organization.id, params.licenseId ?? "");
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(file.content, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
