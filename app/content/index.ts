import type { ContentPage } from "./types";
import { DOC_PAGES } from "./docs";
import { SETUP_PAGES } from "./setup";
import { SOFTWARE_PAGES } from "./software";

/** The sidebar's software, setup and documentation sections, by their URL's first segment. */
export const CONTENT_SECTIONS: Record<string, Record<string, ContentPage>> = {
  software: SOFTWARE_PAGES,
  setup: SETUP_PAGES,
  docs: DOC_PAGES,
};
