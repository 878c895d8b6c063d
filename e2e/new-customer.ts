import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { insertAccount, withDatabase } from "./database";
import { signInAs } from "./fixtures";

/**
 * A customer of its own (Jordan Reyes of Reyes Security, the Owner) with no card and no billing profile yet, signed
 * in on `page`, for a walk that must start from nothing; its address starts with `prefix`, which is returned.
 */
export async function signInAsNewCustomer(page: Page, databaseUrl: string, prefix: string): Promise<string> {
  const email = await newCustomer(databaseUrl, prefix);
  await signInAs(page, email);
  return email;
}

/** Such a customer's account (signInAsNewCustomer), made only, for a walk that signs in its own way; its address. */
export async function newCustomer(databaseUrl: string, prefix: string): Promise<string> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  await withDatabase(databaseUrl, (db) =>
    insertAccount(db, {
      id: randomUUID(),
      email,
      firstName: "Jordan",
      lastName: "Reyes",
      company: "Reyes Security",
      phone: "+14155550199",
    }),
  );
  return email;
}
