import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ContentPage } from "~/content/types";
import { documentTitle, InfoPage } from "./page";

export const contentHandle = {
  title: (data: unknown) => (data as ContentPage | undefined)?.title ?? "GateKeeper Portal",
};

export const contentMeta: MetaFunction = ({ data }) =>
  documentTitle((data as ContentPage | undefined)?.title ?? "Page not found");

export function ContentPageView() {
  const page = useLoaderData<ContentPage>();
  return <InfoPage lead={page.lead} sections={page.sections} />;
}
