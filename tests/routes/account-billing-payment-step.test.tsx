import { MantineProvider } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { PaymentStep, type PaymentStepProps } from "~/ui/billing/payment-step";
import type { PaymentSourceView, PaymentStepData } from "~/domain/billing-views";

/** The payment step as the server renders it, i.e. what a browser without JavaScript gets. */
async function render(data: PaymentStepData, props: Partial<PaymentStepProps> = {}) {
  const url = "http://portal.test/store/subscribe/billing";
  const routes = [
    {
      path: "/store/subscribe/billing",
      element: <PaymentStep data={data} nextLabel="Next: Order" drawerBase="/store/subscribe/billing" {...props} />,
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error("no redirect expected");
  return renderToString(
    <MantineProvider>
      <AuthenticityTokenProvider token="csrf-token">
        <StaticRouterProvider
          router={createStaticRouter(handler.dataRoutes, context)}
          context={context}
          hydrate={false}
        />
      </AuthenticityTokenProvider>
    </MantineProvider>,
  );
}

const visa: PaymentSourceView = {
  id: "src_visa",
  type: "card",
  status: "valid",
  card: { brand: "visa", last4: "4242", holder: "Dana Whitfield", expiryMonth: 9, expiryYear: 2031 },
};
const billingAddress = {
  firstName: "Dana",
  line1: "450 Mission Street",
  city: "San Francisco",
  zip: "94105",
  country: "US",
};
const ready = (change: Partial<Extract<PaymentStepData, { status: "ready" }>> = {}): PaymentStepData => ({
  status: "ready",
  sources: [visa],
  preselectedSourceId: visa.id,
  billingAddress,
  shippingAddress: null,
  addressesValid: true,
  ...change,
});

const radio = (html: string) => html.match(/<input[^>]*name="payment_source_id"[^>]*>/)?.[0] ?? "";
const nextButton = (html: string) => html.match(/<button[^>]*value="next"[^>]*>/)?.[0] ?? "";

describe("the payment step", () => {
  it("posts the preselected card with Next enabled when card and addresses are valid", async () => {
    const html = await render(ready(), { previousTo: "/store/subscribe/review" });
    expect(html).toMatch(/<form method="post"/);
    expect(html).toContain('name="csrf" value="csrf-token"');
    expect(radio(html)).toMatch(/checked=""/);
    expect(radio(html)).toContain('value="src_visa"');
    expect(nextButton(html)).not.toContain("disabled");
    expect(html).toContain("Next: Order");
    expect(html).toContain('href="/store/subscribe/review"');
    expect(html).toContain('alt="Visa"');
    expect(html).toContain("Sep 2031");
    expect(html).toContain("Same as billing address");
    expect(html).toContain('href="/store/subscribe/billing/shipping"');
    expect(html).toContain('href="/store/subscribe/billing/cards/src_visa/replace"');
  });

  it("disables Next with its reasons written out when there is no card and no address", async () => {
    const html = await render(
      ready({ sources: [], preselectedSourceId: null, billingAddress: null, addressesValid: false }),
    );
    expect(nextButton(html)).toContain("disabled");
    expect(html).toContain("Please add and select a valid payment method.");
    expect(html).toContain("Please make sure billing &amp; shipping address are valid.");
    expect(html).toContain("Please update the address");
    expect(html).toContain('href="/store/subscribe/billing/cards/new"');
    // Without previousTo, Previous submits the choice too.
    expect(html).toMatch(/<button[^>]*value="previous"/);
  });

  it("cannot choose an invalid card", async () => {
    const invalid = { ...visa, status: "invalid" };
    const html = await render(ready({ sources: [invalid], preselectedSourceId: null }));
    expect(radio(html)).toContain('disabled=""');
    expect(radio(html)).not.toContain("checked");
    expect(html).toContain("Invalid");
    expect(html).toContain("Please add and select a valid payment method.");
    expect(html).not.toContain("Please make sure billing");
  });

  it("shows 'Error' in place of the step when loading failed", async () => {
    const html = await render({ status: "error" });
    expect(html).toContain(">Error<");
    expect(html).not.toContain("<form");
  });
});
