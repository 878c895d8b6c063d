import { InfoPage, PageErrorBoundary, pageMeta } from "~/ui/page";

export const handle = { title: "Support" };
export const meta = pageMeta("Support");

export default function Support() {
  return (
    <InfoPage
      lead="Our support team helps with installation, licenses, Hubs, hardware and billing."
      sections={[
        {
          title: "Contact us",
          body: "Email support@gkaccess.com or call +1 (888) 977-0780, Monday to Friday, 9am to 6pm US Eastern time. Tell us your organization name and license id so we can help faster.",
          links: [{ label: "Email support", to: "mailto:support@gkaccess.com", external: true }],
        },
        {
          title: "Before you call",
          body: "Most answers are in the manuals and setup guides.",
          links: [
            { label: "Manuals", to: "/docs/manuals" },
            { label: "Cloud Hub setup", to: "/setup/cloudHub" },
            { label: "On-premise Hub setup", to: "/setup/onPremiseHub" },
          ],
        },
        {
          title: "Planning a deployment",
          body: "Fill in the pre-installation questionnaire and we will prepare your rollout with you.",
          links: [{ label: "Pre-installation questionnaire", to: "/docs/pre-installation-questionnaire" }],
        },
        {
          title: "Licenses and billing",
          body: "See your licenses and their expiry dates, or review your account details.",
          links: [
            { label: "Licenses", to: "/licenses" },
            { label: "Account", to: "/account" },
          ],
        },
      ]}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;
