import type { LoaderFunctionArgs } from "@remix-run/node";
import { CONTENT_SECTIONS } from "~/content";
import { requireMember } from "~/server/accounts/access.server";
import { contentPageFor, ownEntry } from "~/server/content/pages.server";
import { contentHandle, contentMeta, ContentPageView } from "~/ui/content-page";
import { PageErrorBoundary } from "~/ui/page";

/** The software, setup and docs pages (/software/hub, /setup/cloudHub, /docs/manuals, ...). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request);
  return contentPageFor(ownEntry(CONTENT_SECTIONS, params.section) ?? {}, params.page, member);
}

export const handle = contentHandle;
export const meta = contentMeta;
export default ContentPageView;
export const ErrorBoundary = PageErrorBoundary;
