import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/domain/redirects";

const ORIGIN = "https://portal.example/login";

describe("redirect targets", () => {
  it("keep paths, queries and fragments on the portal", () => {
    expect(safeRedirect("/hubs?new=true", ORIGIN)).toBe("/hubs?new=true");
    expect(safeRedirect("/store/subscribe/plan#top", ORIGIN)).toBe("/store/subscribe/plan#top");
    expect(safeRedirect("/a/../licenses", ORIGIN)).toBe("/licenses");
  });

  it("send anything that could leave the portal to /home", () => {
    for (const target of [
      "/\t/evil.example/",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/ /evil.example",
      "/\u00a0/evil.example",
      "/\u2028/evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      " /home",
      "",
      null,
      undefined,
      ["/home"],
    ]) {
      expect(safeRedirect(target, ORIGIN), JSON.stringify(target)).toBe("/home");
    }
  });
});
