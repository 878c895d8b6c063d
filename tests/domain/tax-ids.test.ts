import { describe, expect, it } from "vitest";
import { countryOfVatNumber, reverseChargeApplies } from "~/domain/tax-ids";
import { normalizeVatNumber } from "~/domain/vat-format";

describe("a VAT number's format", () => {
  it("is checked per country, with or without its prefix, and written one way", () => {
    expect(normalizeVatNumber("DE", "de 136.695-976")).toBe("DE136695976");
    expect(normalizeVatNumber("DE", "136695976")).toBe("DE136695976");
    expect(normalizeVatNumber("GR", "GR094259216")).toBe("EL094259216");
    expect(normalizeVatNumber("AT", "ATU13585627")).toBe("ATU13585627");
    expect(normalizeVatNumber("GB", "GB980780684")).toBe("GB980780684");
    expect(normalizeVatNumber("CH", "CHE-100.155.212 MWST")).toBe("CHE100155212MWST");
    expect(normalizeVatNumber("NO", "NO 974 760 673 MVA")).toBe("NO974760673MVA");
  });

  it("refuses a wrong check digit, another country's number and a country without VAT numbers", () => {
    expect(normalizeVatNumber("DE", "DE136695978")).toBeNull();
    expect(normalizeVatNumber("DE", "FR40303265045")).toBeNull();
    expect(normalizeVatNumber("US", "136695976")).toBeNull();
  });

  it("tells its country from its prefix", () => {
    expect(countryOfVatNumber("EL094259216")).toBe("GR");
    expect(countryOfVatNumber("CHE100155212MWST")).toBe("CH");
    expect(countryOfVatNumber("US123")).toBeNull();
  });
});

describe("the reverse charge", () => {
  const valid = { vatNumber: "DE136695976", vatNumberValid: true };
  it("applies to an EU business with a valid number in another member state than the seller's", () => {
    expect(reverseChargeApplies(valid, "IE6388047V")).toBe(true);
  });
  it("does not apply in the seller's own member state, without a valid number, or outside the EU", () => {
    expect(reverseChargeApplies(valid, "DE811569869")).toBe(false);
    expect(reverseChargeApplies({ ...valid, vatNumberValid: false }, "IE6388047V")).toBe(false);
    expect(reverseChargeApplies({ vatNumber: null, vatNumberValid: false }, "IE6388047V")).toBe(false);
    expect(reverseChargeApplies({ vatNumber: "GB980780684", vatNumberValid: true }, "IE6388047V")).toBe(false);
  });
});
