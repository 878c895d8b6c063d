import type { MetaFunction } from "@remix-run/node";
import { documentTitle, InfoPage, PageErrorBoundary } from "~/ui/page";

export const handle = { title: "Store" };
export const meta: MetaFunction = () => documentTitle("Store");

export default function Store() {
  return (
    <InfoPage
      lead="Buy GateKeeper Enterprise licenses and the hardware your users need to log in with a token."
      sections={[
        {
          title: "Recurring licenses",
          body: "A subscription for a number of users on the Core, Advanced or Ultimate plan, billed monthly or yearly (save up to 20% yearly), with cloud or on-premise hosting of your Hub.",
          links: [
            { label: "Add users to a license you already have", to: "/licenses" },
            { label: "Talk to us about a new license", to: "/support" },
          ],
        },
        {
          title: "Hardware",
          body: "Rechargeable Halberd tokens, USB proximity sensors, badge clips and token sleeves, shipped in boxes of five.",
          links: [{ label: "Ask support about a hardware order", to: "/support" }],
        },
        {
          title: "Try before you buy",
          body: "A free GateKeeper Enterprise trial runs for 15 to 30 days on a cloud Hub or on your own server.",
          links: [{ label: "Start a free trial", to: "/trial" }],
        },
      ]}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
