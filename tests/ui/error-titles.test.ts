import type { MetaArgs, MetaFunction } from "@remix-run/node";
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { meta as rootMeta } from "~/root";
import { contentMeta } from "~/ui/content-page";
import { pageMeta } from "~/ui/page";

/**
 * Every error page names its tab after the error, as its heading does. Remix runs the meta of the route whose
 * error boundary shows, or of its nearest ancestor with one, with that error: a page's own for the pages in the
 * shell, the root's for the rest. e2e/shell.spec.ts opens each kind of error page in the built portal.
 */
const notFound = new ErrorResponse(404, "Not Found", { message: "There is no such page." });
const forbidden = new ErrorResponse(403, "Forbidden", {
  message: "This document is only for GateKeeper distributors.",
});
// A thrown Error reaches the browser as an Error whose message the server sanitized.
const unexpected = new Error("Unexpected Server Error");

function titleOf(meta: MetaFunction, { data, error }: { data?: unknown; error?: unknown }) {
  const args: MetaArgs = {
    data,
    error,
    params: {},
    location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
    matches: [],
  };
  return meta(args);
}

describe("the tab's title of an error page", () => {
  it("outside the shell (a URL no route knows, a page outside the shell, the shell itself) is the root's", () => {
    expect(titleOf(rootMeta, { error: notFound })).toEqual([{ title: "Page not found · GateKeeper Portal" }]);
    expect(titleOf(rootMeta, { error: forbidden })).toEqual([
      { title: "You don't have access to this page · GateKeeper Portal" },
    ]);
    expect(titleOf(rootMeta, { error: unexpected })).toEqual([{ title: "Something went wrong · GateKeeper Portal" }]);
  });

  it("is nothing from the root without an error: every page names its own tab", () => {
    expect(titleOf(rootMeta, {})).toEqual([]);
  });

  it("inside the shell names the error instead of the page", () => {
    const licenses = pageMeta("Licenses");
    expect(titleOf(licenses, {})).toEqual([{ title: "Licenses · GateKeeper Portal" }]);
    expect(titleOf(licenses, { error: notFound })).toEqual([{ title: "Page not found · GateKeeper Portal" }]);
    expect(titleOf(licenses, { error: forbidden })).toEqual([
      { title: "You don't have access to this page · GateKeeper Portal" },
    ]);
    expect(titleOf(licenses, { error: unexpected })).toEqual([{ title: "Something went wrong · GateKeeper Portal" }]);
  });

  it("of a content page tells a document refused from one that does not exist", () => {
    expect(titleOf(contentMeta, { data: { title: "Trident" } })).toEqual([{ title: "Trident · GateKeeper Portal" }]);
    expect(titleOf(contentMeta, { error: notFound })).toEqual([{ title: "Page not found · GateKeeper Portal" }]);
    expect(titleOf(contentMeta, { error: forbidden })).toEqual([
      { title: "You don't have access to this page · GateKeeper Portal" },
    ]);
  });
});
