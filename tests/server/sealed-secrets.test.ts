import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "~/server/platform/wizards/sealed.server";

describe("secrets typed into a wizard", () => {
  it("are stored sealed, not in plaintext, and open again with the portal's root secret", () => {
    const sealed = sealSecret("Hub-admin-Pa55word!");
    expect(sealed).not.toContain("Hub-admin-Pa55word!");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(openSecret(sealed)).toBe("Hub-admin-Pa55word!");
    // Each sealing is different (a fresh nonce), so equal passwords do not look equal in the database.
    expect(sealSecret("Hub-admin-Pa55word!")).not.toBe(sealed);
  });

  it("refuses altered or foreign text instead of returning garbage", () => {
    const [version, iv, tag, data] = sealSecret("secret").split(".");
    const flipped = `${data.slice(0, -1)}${data.endsWith("A") ? "B" : "A"}`;
    expect(openSecret([version, iv, tag, flipped].join("."))).toBeNull();
    expect(openSecret("plain text")).toBeNull();
  });
});
