import type { Locator, Page } from "@playwright/test";

/**
 * Fills a card form's holder and billing address: the holder's name where the form asks for it, and a Portland
 * address (the embedded tokenizer checks none of it).
 */
export async function fillCardHolder(form: Page | Locator, { holder = true }: { holder?: boolean } = {}) {
  if (holder) {
    await form.getByLabel("First name").fill("Jordan");
    await form.getByLabel("Last name").fill("Reyes");
  }
  await form.getByLabel("Address line 1").fill("77 Pine Street");
  await form.getByLabel("City").fill("Portland");
  await form.getByLabel("State").fill("OR");
  await form.getByLabel("Zip").fill("97204");
  await form.getByRole("combobox", { name: "Country", exact: true }).selectOption("US");
}

/** Fills a card form, a drawer's or the trial step's own: the holder and address, and the card with code 123. */
export async function fillCardForm(
  form: Page | Locator,
  number: string,
  { expiry = "09 / 31", holder = true }: { expiry?: string; holder?: boolean } = {},
) {
  await fillCardHolder(form, { holder });
  await form.getByLabel("Card number").fill(number);
  await form.getByLabel("Expiry").fill(expiry);
  await form.getByLabel("Security code").fill("123");
}

/** Fills the card drawer and saves the card. */
export async function saveCardInDrawer(drawer: Locator, number: string, options?: { expiry?: string }) {
  await fillCardForm(drawer, number, options);
  await drawer.getByRole("button", { name: "Save Card" }).click();
}
