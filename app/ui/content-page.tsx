import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { documentTitle, InfoPage, type PageSection } from "./page";

/** A page of the software, setup or docs sections: copy only, chosen by the URL's last segment. */
export interface ContentPage {
  title: string;
  lead: string;
  sections: PageSection[];
  /** Only distributors (resellers) may open it. */
  distributorOnly?: boolean;
}

export const contentHandle = {
  title: (data: unknown) => (data as ContentPage | undefined)?.title ?? "GateKeeper Portal",
};

export const contentMeta: MetaFunction = ({ data }) =>
  documentTitle((data as ContentPage | undefined)?.title ?? "Page not found");

export function ContentPageView() {
  const page = useLoaderData<ContentPage>();
  return <InfoPage lead={page.lead} sections={page.sections} />;
}
