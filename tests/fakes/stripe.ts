import { randomBytes } from "node:crypto";
import { z } from "zod";
import { startFake, type FakeRequest, type FakeResponse } from "./http";

/**
 * A wire-level fake of the two Stripe calls the portal's server makes: create a card payment method
 * from a token, and attach it to a customer. It checks the request shapes and the Idempotency-Key,
 * replays a repeated key, and answers with Stripe's JSON, including its error bodies.
 */

export const FAKE_STRIPE_KEY = "sk_test_fake";

/** A token the browser's card element would have made; `declined` is refused as Stripe refuses a declined card. */
interface FakeToken {
  brand: string;
  last4: string;
  declined?: boolean;
}

interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  customer: string | null;
}

const stripeError = (status: number, type: string, message: string, code?: string, param?: string): FakeResponse => ({
  status,
  json: { error: { type, message, code, param } },
});

export async function startStripeFake() {
  const tokens = new Map<string, FakeToken>();
  const customers = new Set<string>();
  const methods = new Map<string, PaymentMethod>();
  const replays = new Map<string, FakeResponse>();
  const requests: { path: string; params: Record<string, unknown>; idempotencyKey?: string }[] = [];
  const shapeErrors: string[] = [];
  let nextResponse: FakeResponse | undefined;

  const createParams = z.object({ type: z.literal("card"), card: z.object({ token: z.string() }).strict() }).strict();
  const attachParams = z.object({ customer: z.string() }).strict();

  const serve = (request: FakeRequest): FakeResponse => {
    if (request.path === "/v1/payment_methods") {
      const parsed = createParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const token = tokens.get(parsed.data.card.token);
      if (!token)
        return stripeError(
          400,
          "invalid_request_error",
          `No such token: '${parsed.data.card.token}'`,
          "resource_missing",
          "card[token]",
        );
      if (token.declined) return stripeError(402, "card_error", "Your card was declined.", "card_declined");
      const method: PaymentMethod = {
        id: `pm_${randomBytes(8).toString("hex")}`,
        object: "payment_method",
        type: "card",
        card: { brand: token.brand, last4: token.last4, exp_month: 12, exp_year: 2034 },
        customer: null,
      };
      tokens.delete(parsed.data.card.token);
      methods.set(method.id, method);
      return { status: 200, json: method };
    }
    const attach = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(request.path);
    if (attach) {
      const parsed = attachParams.safeParse(request.params);
      if (!parsed.success) return shapeError(request, parsed.error.message);
      const method = methods.get(attach[1]);
      if (!method)
        return stripeError(404, "invalid_request_error", `No such PaymentMethod: '${attach[1]}'`, "resource_missing");
      if (!customers.has(parsed.data.customer)) {
        return stripeError(
          400,
          "invalid_request_error",
          `No such customer: '${parsed.data.customer}'`,
          "resource_missing",
          "customer",
        );
      }
      method.customer = parsed.data.customer;
      return { status: 200, json: method };
    }
    return { status: 404, html: "<html><body>Not Found</body></html>" };
  };

  const shapeError = (request: FakeRequest, problem: string) => {
    shapeErrors.push(`${request.path}: ${problem}`);
    return stripeError(400, "invalid_request_error", problem, "parameter_unknown");
  };

  const server = await startFake(async (request) => {
    const idempotencyKey =
      typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : undefined;
    requests.push({ path: request.path, params: request.params, idempotencyKey });
    if (request.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided.");
    }
    if (nextResponse) {
      const response = nextResponse;
      nextResponse = undefined;
      return response;
    }
    if (request.method !== "POST") return { status: 405, html: "<html><body>Method Not Allowed</body></html>" };
    if (!idempotencyKey) return shapeError(request, "Idempotency-Key header missing");
    const replay = replays.get(idempotencyKey);
    if (replay) return replay;
    const response = serve(request);
    if (response.status < 500) replays.set(idempotencyKey, response);
    return response;
  });

  return {
    port: server.port,
    close: server.close,
    requests,
    shapeErrors,
    /** What Stripe.js would have made in the browser for this card. */
    addToken: (id: string, token: FakeToken) => tokens.set(id, token),
    addCustomer: (id: string) => customers.add(id),
    answerNextWith: (response: FakeResponse) => {
      nextResponse = response;
    },
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
