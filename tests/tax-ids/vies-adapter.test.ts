import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/database/db.server";
import { createTaxIdSimulator } from "~/server/tax-ids/simulator/simulator.server";
import { createViesRegister } from "~/server/tax-ids/vies/adapter.server";
import { startViesFake } from "../fakes/vies";

/** What the VIES adapter sends, and how VIES's failures reach the portal. The behaviour is the contract's. */
let fake: Awaited<ReturnType<typeof startViesFake>>;
const register = () => createViesRegister({ baseUrl: fake.url, timeoutMs: 2_000 });

beforeAll(async () => {
  fake = await startViesFake({ register: createTaxIdSimulator({ store: db }) });
});
afterAll(() => fake.close());

describe("the VIES adapter", () => {
  it("sends the member state's code (EL for Greece) and the number without it", async () => {
    await register().check({ country: "GR", vatNumber: "EL094259216" });
    expect(fake.requests.at(-1)).toEqual({ countryCode: "EL", vatNumber: "094259216" });
    await register().check({ country: "AT", vatNumber: "ATU13585627" });
    expect(fake.requests.at(-1)).toEqual({ countryCode: "AT", vatNumber: "U13585627" });
  });

  it("takes an outage's page, a server error or an unreachable service as an unavailable register", async () => {
    fake.answerNextWith({ status: 502, html: "<html><body>Bad Gateway</body></html>" });
    await expect(register().check({ country: "DE", vatNumber: "DE136695976" })).rejects.toMatchObject({
      kind: "retryable",
    });
    fake.answerNextWith({ status: 500, json: { actionSucceed: false, errorWrappers: [{ error: "TIMEOUT" }] } });
    await expect(register().check({ country: "DE", vatNumber: "DE136695976" })).rejects.toMatchObject({
      kind: "retryable",
      code: "TIMEOUT",
    });
    const unreachable = createViesRegister({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1_000 });
    await expect(unreachable.check({ country: "DE", vatNumber: "DE136695976" })).rejects.toMatchObject({
      kind: "retryable",
    });
  });

  it("takes VIES's refusal of the request as final", async () => {
    fake.answerNextWith({ status: 400, json: { actionSucceed: false, errorWrappers: [{ error: "INVALID_INPUT" }] } });
    await expect(register().check({ country: "DE", vatNumber: "DE136695976" })).rejects.toMatchObject({
      kind: "final",
      code: "invalid_input",
    });
  });
});
