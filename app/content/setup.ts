import type { ContentPage } from "./types";

export const SETUP_PAGES: Record<string, ContentPage> = {
  cloudHub: {
    title: "Cloud Hub Setup",
    lead: "A cloud Hub runs in our data centre in the US or EU region. You need a license with cloud support.",
    sections: [
      {
        title: "1. Choose the Hub's address",
        body: "Pick a subdomain of at least six letters, digits or hyphens, ideally part of your organization's name. It cannot be changed later.",
      },
      {
        title: "2. Pick the license",
        body: "Choose an unused, valid license with cloud support. Buy one in the Store if you have none.",
        links: [
          { label: "Your licenses", to: "/licenses" },
          { label: "Store", to: "/store" },
        ],
      },
      {
        title: "3. Create the administrator",
        body: "The Hub's first administrator account: a username, your name, email, phone and a password of at least eight characters with a digit, a lowercase and an uppercase letter.",
      },
      {
        title: "4. Deploy",
        body: "We create the Hub, connect it to the portal, set up the administrator and upload the license. Then install the GateKeeper Client on each computer.",
        links: [
          { label: "Your Hub deployments", to: "/hubs" },
          { label: "GateKeeper Client", to: "/software/client" },
        ],
      },
    ],
  },
  onPremiseHub: {
    title: "On-Premise Hub Setup",
    lead: "An on-premise Hub is a server application you install on a Windows Server on your own network.",
    sections: [
      {
        title: "Before you start",
        body: "A Windows Server 2016 or later that every computer with the GateKeeper Client can reach, and a license file from the Licenses page.",
        links: [{ label: "Pre-installation questionnaire", to: "/docs/pre-installation-questionnaire" }],
      },
      {
        title: "Install the Hub",
        body: "Run the Hub installer on the server, open the Hub's web page, create the administrator and upload your license file.",
        links: [
          { label: "GateKeeper Hub", to: "/software/hub" },
          { label: "Download a license", to: "/licenses" },
        ],
      },
      {
        title: "Roll out the Client",
        body: "Install the GateKeeper Client on each computer and point it at the Hub's address; enrol a token for each user.",
        links: [{ label: "GateKeeper Client", to: "/software/client" }],
      },
      {
        title: "Need a hand?",
        body: "Our team can install the Hub with you on-site or over a video call.",
        links: [{ label: "Contact support", to: "/support" }],
      },
    ],
  },
};
