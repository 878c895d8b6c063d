import { describe, expect, it } from "vitest";
import { PO_NUMBER_MAX_LENGTH, PO_NUMBER_TOO_LONG, poNumberOf } from "~/domain/purchase-orders";

describe("the PO number posted with an order", () => {
  it("is optional: nothing typed, or only spaces, is none", () => {
    expect(poNumberOf(null)).toEqual({ ok: true, poNumber: null });
    expect(poNumberOf("   ")).toEqual({ ok: true, poNumber: null });
  });

  it("is kept on one line and trimmed", () => {
    expect(poNumberOf("  PO-4500\n012345 ")).toEqual({ ok: true, poNumber: "PO-4500 012345" });
  });

  it("takes 100 characters and refuses more, with what was typed to show again under the message", () => {
    const longest = "7".repeat(PO_NUMBER_MAX_LENGTH);
    expect(poNumberOf(longest)).toEqual({ ok: true, poNumber: longest });
    expect(poNumberOf(`${longest}8`)).toEqual({
      ok: false,
      refusal: { poNumberError: PO_NUMBER_TOO_LONG, poNumber: `${longest}8` },
    });
  });
});
