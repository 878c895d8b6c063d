import { eq } from "drizzle-orm";
import { createLocalCards } from "~/server/cards/local/provider.server";
import { db } from "~/server/platform/database/db.server";
import { cardTokens } from "~/server/platform/database/tables.server";
import { answerSetup } from "~/server/providers/card-vault.server";
import { setupRequest } from "../support/card-tokens";
import { cardSetupContract, type TestCard } from "./setup-contract";

const NUMBERS: Record<TestCard, string> = {
  saved: "4242 4242 4242 4242",
  asks: "4000 0027 6000 3184",
  declined: "4000 0000 0000 0002",
};

cardSetupContract("embedded tokenizer", async () => {
  const cards = createLocalCards({ store: db });
  const owner = { billingCustomerId: "cust_contract", gatewayCustomer: null };
  return {
    cards,
    owner,
    async enterCard(card, formKey) {
      const form = new FormData();
      form.set("card_number", NUMBERS[card]);
      form.set("card_expiry", "11 / 33");
      form.set("card_cvc", "321");
      return cards.setUpCard(setupRequest(form, { firstName: "Sam", lastName: "Holder" }), formKey);
    },
    async answerBank(setupId, answer) {
      await answerSetup(db, setupId, answer);
    },
    async lastFourOf(setup) {
      if (!("token" in setup)) throw new Error("The embedded tokenizer saves a token");
      const [row] = await db.select().from(cardTokens).where(eq(cardTokens.id, setup.token));
      return row.last4;
    },
  };
});
