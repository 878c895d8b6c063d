import type { ContentPage, PageSection } from "./types";

const INSTALL_HELP: PageSection = {
  title: "Installing",
  body: "Installers are sent by our support team with your license, so you always get the version that matches your Hub. Ask for the current installer and release notes.",
  links: [
    { label: "Request the installer", to: "/support" },
    { label: "Manuals", to: "/docs/manuals" },
  ],
};

export const SOFTWARE_PAGES: Record<string, ContentPage> = {
  hub: {
    title: "GateKeeper Hub",
    lead: "The Hub is the server at the centre of GateKeeper: it holds your users, tokens, computers and passwords, and your license.",
    sections: [
      {
        title: "Cloud or on-premise",
        body: "Run the Hub in our cloud (US or EU region), or install it on a Windows Server on your network.",
        links: [
          { label: "Your Hub deployments", to: "/hubs" },
          { label: "Cloud Hub setup", to: "/setup/cloudHub" },
          { label: "On-premise Hub setup", to: "/setup/onPremiseHub" },
        ],
      },
      INSTALL_HELP,
    ],
  },
  client: {
    title: "GateKeeper Client",
    lead: "The Client runs on each Windows or Mac computer: it locks the computer when the user's token walks away and logs them in when they return.",
    sections: [
      {
        title: "Requirements",
        body: "Windows 10 or later, or macOS 12 or later, with a USB sensor and a Halberd token per user.",
      },
      INSTALL_HELP,
    ],
  },
  remote: {
    title: "GateKeeper Remote",
    lead: "Remote lets administrators manage users and computers from anywhere through the Hub.",
    sections: [INSTALL_HELP],
  },
  passwordmanager: {
    title: "GateKeeper Password Manager",
    lead: "The Password Manager fills passwords for websites and applications once the user is logged in with their token.",
    sections: [INSTALL_HELP],
  },
  trident: {
    title: "Trident",
    lead: "Trident is GateKeeper's multi-factor login: token, PIN and optional biometrics together.",
    sections: [INSTALL_HELP],
  },
  allsoftware: {
    title: "All Software",
    lead: "Every GateKeeper application in one place.",
    sections: [
      {
        title: "Applications",
        body: "The Hub, the Client, Remote, the Password Manager and Trident.",
        links: [
          { label: "GateKeeper Hub", to: "/software/hub" },
          { label: "GateKeeper Client", to: "/software/client" },
          { label: "GateKeeper Remote", to: "/software/remote" },
          { label: "Password Manager", to: "/software/passwordmanager" },
          { label: "Trident", to: "/software/trident" },
        ],
      },
      INSTALL_HELP,
    ],
  },
};
