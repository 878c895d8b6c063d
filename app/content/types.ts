import type { Action } from "~/domain/access-policy";
/** The shape of the portal's copy: plain data the server sends and the pages render. */
export interface PageLink {
  label: string;
  to: string;
  /** Links that leave the portal open as plain anchors. */
  external?: boolean;
}

export interface PageSection {
  title: string;
  body: string;
  links?: PageLink[];
}

/** A page of the software, setup or docs sections: copy only, chosen by the URL's last segment. */
export interface ContentPage {
  title: string;
  lead: string;
  sections: PageSection[];
  /** What the access policy must allow to open it (the documents for distributors); anyone signed in otherwise. */
  needs?: Action;
}
