import { ConfigError, parseEnv } from "~/server/platform/config/env.server";

/** BILLING_PROVIDER and CARD_PROVIDER: embedded by default, real ones only with their keys, and only together. */
const chargebee = {
  BILLING_PROVIDER: "chargebee",
  CHARGEBEE_SITE: "gatekeeper-test",
  CHARGEBEE_API_KEY: "test_abc",
  CHARGEBEE_GATEWAY_ACCOUNT_ID: "gw_123",
  CHARGEBEE_PUBLISHABLE_KEY: "test_pub",
  CHARGEBEE_WEBHOOK_USERNAME: "chargebee",
  CHARGEBEE_WEBHOOK_PASSWORD: "0123456789abcdef",
};
const stripe = {
  CARD_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_test_abc",
  STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
  PUBLIC_URL: "https://portal.example.com",
};

describe("provider configuration", () => {
  it("uses the embedded billing engine and test tokenizer when nothing is set", () => {
    expect(parseEnv({})).toMatchObject({ BILLING_PROVIDER: "local", CARD_PROVIDER: "local" });
  });

  it("switches to Chargebee and Stripe with their keys", () => {
    expect(parseEnv({ ...chargebee, ...stripe })).toMatchObject({
      BILLING_PROVIDER: "chargebee",
      CARD_PROVIDER: "stripe",
    });
  });

  it("names the missing key in one line", () => {
    expect(() => parseEnv({ ...chargebee, CHARGEBEE_API_KEY: "", ...stripe })).toThrowError(
      new ConfigError("CHARGEBEE_API_KEY is required when BILLING_PROVIDER=chargebee"),
    );
    expect(() => parseEnv({ ...chargebee, CHARGEBEE_PUBLISHABLE_KEY: undefined, ...stripe })).toThrowError(
      new ConfigError("CHARGEBEE_PUBLISHABLE_KEY is required when BILLING_PROVIDER=chargebee"),
    );
    expect(() => parseEnv({ ...chargebee, ...stripe, STRIPE_PUBLISHABLE_KEY: undefined })).toThrowError(
      new ConfigError("STRIPE_PUBLISHABLE_KEY is required when CARD_PROVIDER=stripe"),
    );
    // Stripe's pages send the cardholder back to the portal's own address.
    expect(() => parseEnv({ ...chargebee, ...stripe, PUBLIC_URL: undefined })).toThrowError(
      new ConfigError("PUBLIC_URL is required when CARD_PROVIDER=stripe"),
    );
    expect(() => parseEnv({ ...chargebee, ...stripe, STRIPE_SECRET_KEY: "pk_live_oops" })).toThrowError(
      new ConfigError("STRIPE_SECRET_KEY must be a Stripe secret key (sk_...)"),
    );
    expect(() => parseEnv({ ...chargebee, CHARGEBEE_WEBHOOK_PASSWORD: undefined, ...stripe })).toThrowError(
      new ConfigError("CHARGEBEE_WEBHOOK_PASSWORD is required when BILLING_PROVIDER=chargebee"),
    );
    expect(() => parseEnv({ ...chargebee, CHARGEBEE_WEBHOOK_PASSWORD: "short", ...stripe })).toThrowError(
      /^CHARGEBEE_WEBHOOK_PASSWORD must be at least 16 characters/,
    );
    expect(() => parseEnv({ BILLING_PROVIDER: "recurly" })).toThrowError(
      new ConfigError("BILLING_PROVIDER must be local or chargebee"),
    );
  });

  it("takes another origin for each provider's API, as the SDKs' host, port and protocol", () => {
    expect(
      parseEnv({
        ...chargebee,
        ...stripe,
        STRIPE_API_URL: "http://127.0.0.1:12111",
        CHARGEBEE_API_URL: "https://cb.test",
      }),
    ).toMatchObject({
      STRIPE_API_URL: { protocol: "http", host: "127.0.0.1", port: 12111 },
      CHARGEBEE_API_URL: { protocol: "https", host: "cb.test", port: 443 },
    });
    const unset = parseEnv({ ...chargebee, ...stripe });
    expect([unset.STRIPE_API_URL, unset.CHARGEBEE_API_URL]).toEqual([undefined, undefined]);
    for (const wrong of ["api.stripe.test", "ftp://127.0.0.1:21", "http://127.0.0.1:12111/v1"]) {
      expect(() => parseEnv({ ...chargebee, ...stripe, STRIPE_API_URL: wrong }), wrong).toThrowError(
        /^STRIPE_API_URL must be an http\(s\) origin/,
      );
    }
  });

  it("refuses one real provider without the other", () => {
    expect(() => parseEnv(chargebee)).toThrowError(/^CARD_PROVIDER must be stripe with BILLING_PROVIDER=chargebee/);
    expect(() => parseEnv(stripe)).toThrowError(/^CARD_PROVIDER must be stripe with BILLING_PROVIDER=chargebee/);
  });
});
