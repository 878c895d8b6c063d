import { useLoaderData } from "@remix-run/react";
import type { ContentPage } from "~/content/types";
import { InfoPage, pageMeta } from "./page";

export const contentHandle = {
  title: (data: unknown) => (data as ContentPage | undefined)?.title ?? "GateKeeper Portal",
};

export const contentMeta = pageMeta(contentHandle.title);

export function ContentPageView() {
  const page = useLoaderData<ContentPage>();
  return <InfoPage lead={page.lead} sections={page.sections} />;
}
