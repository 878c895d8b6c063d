import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import * as cloudHub from "~/routes/_portal.hubs.new";
import * as update from "~/routes/_portal.licenses.$subscriptionId.update";
import * as subscribe from "~/routes/_portal.store.subscribe";
import * as trial from "~/routes/_portal.trial.$hubType";
import { memberByEmail } from "../support/members";
import { cloudHubWizard } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { licenseUpdateWizard } from "~/server/orders/license-update-wizard.server";
import { subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { TRIAL_WIZARDS } from "~/server/trials/trial-wizard.server";
import { formRequest, getRequest, respond } from "../support/requests";
import { demoCookie } from "../support/sign-in";

/** The four wizard layout routes run on one loader and action from the wizard kit: they must answer alike. */
const SUBSCRIPTION = "sub_demo_core_monthly";
const LAYOUTS = [
  {
    name: "new subscription",
    route: subscribe,
    base: "/store/subscribe",
    params: {},
    first: "plan",
    later: "billing",
    closeTo: "/store",
    draft: () => subscriptionWizard,
  },
  {
    name: "cloud Hub",
    route: cloudHub,
    base: "/hubs/new",
    params: {},
    first: "url",
    later: "admin",
    closeTo: "/hubs",
    draft: () => cloudHubWizard,
  },
  {
    name: "license update",
    route: update,
    base: `/licenses/${SUBSCRIPTION}/update`,
    params: { subscriptionId: SUBSCRIPTION },
    first: "product",
    later: "review",
    closeTo: "/licenses",
    draft: () => licenseUpdateWizard(SUBSCRIPTION),
  },
  {
    name: "cloud trial",
    route: trial,
    base: "/trial/cloud",
    params: { hubType: "cloud" },
    first: "welcome",
    later: "payment",
    closeTo: "/trial",
    draft: () => TRIAL_WIZARDS.cloud,
  },
] as const;

const customerCookie = () => demoCookie("customer@example.com");

const load = async (
  loader: (args: LoaderFunctionArgs) => Promise<unknown>,
  path: string,
  params: LoaderFunctionArgs["params"],
) => respond(async () => loader({ request: getRequest(path, await customerCookie()), params, context: {} }));

describe.each(LAYOUTS)("the $name wizard's layout", ({ route, base, params, first, later, closeTo, draft }) => {
  it("shows the step the URL names, with every step's link, and only the first one reachable on a new draft", async () => {
    const response = await load(route.loader, `${base}/${later}`, params);
    const chrome = await response.json();
    expect(chrome).toMatchObject({ current: later, reachable: [], notices: [], closeAction: base });
    expect(chrome.steps[0]).toMatchObject({ key: first, to: `${base}/${first}` });
  });

  it.each(["", "/", "/no-such-step", "/no-such-step/deeper"])(
    "sends a URL under the wizard that names no step (%j) to the first step",
    async (tail) => {
      const response = await load(route.loader, `${base}${tail}`, params);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`${base}/${first}`);
    },
  );

  it("closes: the draft is cleared and the user goes back to the page under the wizard", async () => {
    const member = await memberByEmail("customer@example.com");
    await draft().save(member, {});
    expect((await draft().read(member)).id).not.toBeNull();
    const closed = await respond(async () =>
      (route.action as (args: ActionFunctionArgs) => Promise<Response>)({
        request: await formRequest(base, {}, { cookie: await customerCookie() }),
        params,
        context: {},
      }),
    );
    expect(closed.headers.get("Location")).toBe(closeTo);
    expect((await draft().read(member)).id).toBeNull();
  });
});
