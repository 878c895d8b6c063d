import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CardOwner, CardProvider, CardSetup } from "~/server/cards/port.server";

/**
 * The card port's setup contract, run against every card provider: a card saved outright, a card whose bank asks
 * (completed, or failed, on the bank's page) and a declined card come to the same outcomes in the same words.
 * Each provider's test file supplies how the cardholder enters a card (the embedded tokenizer's posted fields;
 * Stripe.js confirming a SetupIntent in the browser) and answers the bank's page.
 */

/** The kinds of test card every provider knows: Stripe's 4242, 3184 (asks when saved) and 0002. */
export type TestCard = "saved" | "asks" | "declined";

export interface SetupSubject {
  cards: CardProvider;
  /** Whose card is set up. */
  owner: CardOwner;
  /** The cardholder enters the card in the page and the form is posted: the setup it came to. */
  enterCard(card: TestCard, formKey: string): Promise<CardSetup>;
  /** The cardholder answers the bank's page of the setup. */
  answerBank(setupId: string, answer: "complete" | "fail"): Promise<void>;
  /** The last four digits of the card a setup saved, read where the billing provider finds it. */
  lastFourOf(setup: Extract<CardSetup, { status: "succeeded" }>): Promise<string>;
  close?: () => Promise<void>;
}

export const AUTHENTICATION_FAILED = {
  code: "setup_intent_authentication_failure",
  message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
};

function saved(setup: CardSetup) {
  if (setup.status !== "succeeded") throw new Error(`not saved: ${JSON.stringify(setup)}`);
  return setup;
}

function waiting(setup: CardSetup) {
  if (setup.status !== "requires_action") throw new Error(`not waiting for the bank: ${JSON.stringify(setup)}`);
  return setup;
}

export function cardSetupContract(provider: string, start: () => Promise<SetupSubject>) {
  describe(`card setup contract: ${provider}`, () => {
    let subject: SetupSubject;

    beforeAll(async () => {
      subject = await start();
    });
    afterAll(async () => {
      await subject.close?.();
    });

    it("saves a card its bank does not ask about outright", async () => {
      const setup = saved(await subject.enterCard("saved", "contract-saved"));
      expect(await subject.lastFourOf(setup)).toBe("4242");
    });

    it("gives a double submit of one form the same setup", async () => {
      const first = await subject.enterCard("asks", "contract-double");
      const again = await subject.enterCard("asks", "contract-double");
      expect(waiting(again).setupId).toBe(waiting(first).setupId);
    });

    it("sends the cardholder to the bank's page when the bank asks, and saves the card once they completed it", async () => {
      const setup = waiting(await subject.enterCard("asks", "contract-asks"));
      expect(setup.redirectUrl).toMatch(/^(\/|https?:\/\/)/);
      // Back without an answer: still the bank's page.
      expect(await subject.cards.setupOutcome(setup.setupId)).toEqual(setup);

      await subject.answerBank(setup.setupId, "complete");
      const done = saved(await subject.cards.setupOutcome(setup.setupId));
      expect(await subject.lastFourOf(done)).toBe("3184");
      // A second answer (a reload of the bank's page) changes nothing; a second read reads the same card.
      await subject.answerBank(setup.setupId, "fail");
      expect(await subject.cards.setupOutcome(setup.setupId)).toEqual(done);
    });

    it("declines a card whose cardholder failed the bank's authentication, in Stripe's words", async () => {
      const setup = waiting(await subject.enterCard("asks", "contract-fails"));
      await subject.answerBank(setup.setupId, "fail");
      expect(await subject.cards.setupOutcome(setup.setupId)).toEqual({ status: "declined", ...AUTHENTICATION_FAILED });
    });

    it("declines a declined card in the provider's words", async () => {
      expect(await subject.enterCard("declined", "contract-declined")).toEqual({
        status: "declined",
        code: "card_declined",
        message: "Your card was declined.",
      });
    });

    it("knows no setup it never made", async () => {
      await expect(subject.cards.setupOutcome("seti_nothing")).rejects.toMatchObject({
        kind: "final",
        code: "resource_missing",
      });
    });
  });
}
