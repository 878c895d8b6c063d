import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireMember, whyNot } from "~/server/accounts/access.server";
import { GuardedLinkButton } from "~/ui/button";
import { InfoPage, PageErrorBoundary, pageMeta } from "~/ui/page";

export const handle = { title: "Store" };
export const meta = pageMeta("Store");

/** Every member may look at the Store; buying is for the roles that may (the wizard checks it too). */
export async function loader({ request }: LoaderFunctionArgs) {
  return { subscribeRefused: whyNot(await requireMember(request), "purchase") };
}

/** The Store; the purchase wizard and its order progress open over it as child routes. */
export default function Store() {
  const { subscribeRefused } = useLoaderData<typeof loader>();
  return (
    <>
      <InfoPage
        lead="Buy GateKeeper Enterprise licenses and the hardware your users need to log in with a token."
        sections={[
          {
            title: "Recurring licenses",
            body: "A subscription for a number of users on the Core, Advanced or Ultimate plan, billed monthly or yearly (save up to 20% yearly), with a cloud or on-premise Hub, hardware and installation help.",
            links: [{ label: "Add users to a license you already have", to: "/licenses" }],
          },
          {
            title: "Hardware",
            body: "Rechargeable Halberd tokens, USB proximity sensors, badge clips and token sleeves, shipped in boxes of five; add them to a new subscription.",
          },
          {
            title: "Try before you buy",
            body: "A free GateKeeper Enterprise trial runs for 15 to 30 days on a cloud Hub or on your own server.",
            links: [{ label: "Start a free trial", to: "/trial" }],
          },
        ]}
      >
        <p>
          <GuardedLinkButton to="/store/subscription" plain reason={subscribeRefused}>
            Subscription
          </GuardedLinkButton>
        </p>
      </InfoPage>
      <Outlet />
    </>
  );
}

export const ErrorBoundary = PageErrorBoundary;
