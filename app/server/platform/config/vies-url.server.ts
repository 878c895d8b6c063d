/** The EU's VIES REST API, where the tax-id port asks about VAT numbers unless VIES_URL names another. */
export const VIES_BASE_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api";
