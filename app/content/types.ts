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
  /** Only distributors (resellers) may open it. */
  distributorOnly?: boolean;
}
