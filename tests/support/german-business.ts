/**
 * A German business as the billing tests bill it: its billing address, and a well-formed VAT number that the
 * register simulator finds valid (any German number but its documented ones).
 */
export const GERMAN_ADDRESS = {
  firstName: "Jonas",
  lastName: "Becker",
  line1: "Hauptstraße 5",
  city: "Köln",
  zip: "50667",
  country: "DE",
};
export const GERMAN_VAT_NUMBER = "DE136695976";
