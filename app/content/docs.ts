import type { ContentPage } from "./types";

const ASK_SUPPORT = { label: "Ask support for the latest copy", to: "/support" };

export const DOC_PAGES: Record<string, ContentPage> = {
  shared: {
    title: "Shared Documents",
    lead: "Documents our team has shared with your organization: quotes, proposals and rollout plans.",
    sections: [
      {
        title: "Where they come from",
        body: "Your account manager shares documents with you here as your project goes on.",
        links: [ASK_SUPPORT],
      },
    ],
  },
  "pre-installation-questionnaire": {
    title: "Pre-Installation Questionnaire",
    lead: "Answers about your network, computers and users let us plan your GateKeeper rollout with you.",
    sections: [
      {
        title: "What we ask",
        body: "How many users and computers, which operating systems, whether your Hub will be cloud or on-premise, and how users log in today.",
        links: [{ label: "Send your answers to support", to: "/support" }],
      },
    ],
  },
  evaluation: {
    title: "Evaluation Guide",
    lead: "How to evaluate GateKeeper Enterprise in a 15 to 30 day trial.",
    sections: [
      {
        title: "Plan the evaluation",
        body: "Pick a few users and computers, order tokens and sensors with the trial, and measure the time saved at every login.",
        links: [{ label: "Start a free trial", to: "/trial" }],
      },
    ],
  },
  "case-studies": {
    title: "Case Studies",
    lead: "How clinics, banks, schools and manufacturers use GateKeeper to secure shared computers.",
    sections: [
      {
        title: "Read the stories",
        body: "Ask us for the case studies closest to your industry.",
        links: [ASK_SUPPORT],
      },
    ],
  },
  manuals: {
    title: "Manuals",
    lead: "User and administrator manuals for the Hub, the Client and the companion applications.",
    sections: [
      {
        title: "Administrator guides",
        body: "Setting up the Hub, enrolling users and tokens, and policies for locking and logging in.",
        links: [
          { label: "Cloud Hub setup", to: "/setup/cloudHub" },
          { label: "On-premise Hub setup", to: "/setup/onPremiseHub" },
        ],
      },
      {
        title: "User guides",
        body: "Logging in with a token, the Password Manager and Trident.",
        links: [ASK_SUPPORT],
      },
    ],
  },
  salesProcessEvaluation: {
    title: "Sales Process Evaluation",
    lead: "For distributors: how to run an evaluation with your customer, from first demo to purchase.",
    needs: "documents.reseller",
    sections: [
      {
        title: "The process",
        body: "Qualify the customer, register the deal, start a trial for them, and convert it to a recurring license.",
        links: [{ label: "Deal registration", to: "/docs/deal-registration" }],
      },
    ],
  },
  "deal-registration": {
    title: "Deal Registration",
    lead: "For distributors: register a deal to protect your opportunity and get reseller pricing.",
    needs: "documents.reseller",
    sections: [
      {
        title: "How to register",
        body: "Send the customer's organization, expected users and timeline to your channel manager through support.",
        links: [{ label: "Contact support", to: "/support" }],
      },
    ],
  },
};
