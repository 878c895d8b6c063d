import type { LoaderFunctionArgs } from "@remix-run/node";
import { portalNow } from "~/server/billing/index.server";
import { useLoaderData } from "@remix-run/react";
import { mayDo, requireMember } from "~/server/accounts/access.server";
import { countHubInstallations } from "~/server/cloud-hubs/hub-installations.server";
import { billingAccountOf } from "~/server/accounts/billing-accounts.server";
import { countLicensesByStatus } from "~/server/subscriptions/licenses.server";
import { renewalNoticeViews } from "~/server/subscriptions/renewals.server";
import { InfoPage, PageErrorBoundary, pageMeta } from "~/ui/page";
import { RenewalNotices } from "~/ui/renewal-notices";
import type { RenewalNoticeView } from "~/domain/renewals";

export const handle = { title: "Home" };
export const meta = pageMeta("Home");

const noNotices: RenewalNoticeView[] = [];

export async function loader({ request }: LoaderFunctionArgs) {
  // Asked together, here and below: on PostgreSQL what is asked at once goes out in one write (decision 206).
  const [member, now] = await Promise.all([requireMember(request), portalNow()]);
  const [licenses, hubs, notices] = await Promise.all([
    countLicensesByStatus(member.organization, now),
    countHubInstallations(member.organization),
    // A renewal that failed, or a subscription it ended, is what the organization's payers must hear of first.
    mayDo(member, "invoices.pay") ? renewalNoticeViews(billingAccountOf(member.organization), now) : noNotices,
  ]);
  return {
    firstName: member.user.firstName,
    activeLicenses: licenses.active,
    expiredLicenses: licenses.expired,
    hubs,
    notices,
  };
}

export default function Home() {
  const { firstName, activeLicenses, expiredLicenses, hubs, notices } = useLoaderData<typeof loader>();
  return (
    <InfoPage
      lead={`Welcome back, ${firstName}. Here is where you manage your GateKeeper licenses, Hubs and billing.`}
      sections={[
        {
          title: "Licenses",
          body: "Download a license file for your Hub, add users to a recurring license, or renew an expired one.",
          links: [
            { label: "See your licenses", to: "/licenses" },
            { label: "Buy a new license", to: "/store" },
          ],
        },
        {
          title: "Hub Deployments",
          body: "The GateKeeper Hubs registered to you, in our cloud or on your own server.",
          links: [
            { label: "See your Hub deployments", to: "/hubs" },
            { label: "Set up a cloud Hub", to: "/setup/cloudHub" },
            { label: "Set up an on-premise Hub", to: "/setup/onPremiseHub" },
          ],
        },
        {
          title: "Software",
          body: "Installers for the Hub, the GateKeeper Client on each computer, and the companion apps.",
          links: [{ label: "All software", to: "/software/allsoftware" }],
        },
        {
          title: "Help",
          body: "Manuals, the pre-installation questionnaire, and a direct line to our support team.",
          links: [
            { label: "Manuals", to: "/docs/manuals" },
            { label: "Contact support", to: "/support" },
          ],
        },
      ]}
    >
      <RenewalNotices notices={notices} />
      <div className="gk-stats">
        <Stat label="Active licenses" value={activeLicenses} />
        <Stat label="Expired licenses" value={expiredLicenses} />
        <Stat label="Hub deployments" value={hubs} />
      </div>
    </InfoPage>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="gk-card">
      <p className="gk-dimmed">{label}</p>
      <p className="gk-stat-value">{value}</p>
    </div>
  );
}

export const ErrorBoundary = PageErrorBoundary;
