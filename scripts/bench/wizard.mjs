import { startTags } from "./html.mjs";

const BASE = "/store/subscribe";

/**
 * The new-subscription wizard's steps, in order, and what each one's form posts besides its csrf field
 * and intent=next (the fields are those of app/routes/_portal.store.subscribe.*.tsx). A step's page
 * redirects to the first earlier step that is not done, so the pages can only be measured once the
 * steps before them have been posted. The order step is only fetched: posting it would place the order.
 */
export const WIZARD_STEPS = [
  { path: `${BASE}/plan`, fields: () => ({ tier: "advanced", organization: "Bench Org", users: "10" }) },
  { path: `${BASE}/hosting`, fields: () => ({ hosting: "cloud" }) },
  {
    // Every hardware item's quantity field: 6 USB sensors, none of the rest (empty means 0).
    path: `${BASE}/hardware`,
    fields: (inputs) =>
      Object.fromEntries(
        inputs
          .filter((input) => input.name?.startsWith("quantity-"))
          .map(({ name }) => [name, name === "quantity-usb-sensor" ? "6" : ""]),
      ),
  },
  // Virtual installation needs cloud hosting, which the hosting step chose.
  { path: `${BASE}/support`, fields: () => ({ "addon-virtual-installation": "on" }) },
  { path: `${BASE}/review`, fields: () => ({}) },
  {
    // The card the page preselects (the primary one, else the first usable one).
    path: `${BASE}/billing`,
    fields: (inputs) => {
      const card = inputs.find((input) => input.name === "payment_source_id" && "checked" in input);
      return card ? { payment_source_id: card.value } : null;
    },
  },
  { path: `${BASE}/order` },
];

/**
 * Walks the wizard as a browser without JavaScript would, with the signed-in user's cookies: GET each
 * step's page, then POST its form (with the page's csrf token) and expect a 302 to the next step. Stops
 * at the first step that goes wrong and returns why, or null when every step up to the order page is done.
 */
export async function walkWizard(baseUrl, jar) {
  for (const [index, step] of WIZARD_STEPS.entries()) {
    if (!step.fields) return null;
    const next = WIZARD_STEPS[index + 1].path;
    const page = await fetch(new URL(step.path, baseUrl), { redirect: "manual", headers: { cookie: jar.header } });
    jar.update(page);
    if (page.status !== 200) return `GET ${step.path} answered ${page.status}${where(page)}`;
    const inputs = startTags(await page.text(), "input");
    const csrf = inputs.find((input) => input.name === "csrf")?.value;
    if (!csrf) return `${step.path} has no hidden csrf field`;
    const fields = step.fields(inputs);
    if (!fields) return `${step.path} has no checked payment_source_id radio to post`;

    const response = await fetch(new URL(step.path, baseUrl), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, ...fields, intent: "next" }),
    });
    jar.update(response);
    const location = response.headers.get("location");
    if (response.status === 302 && location && new URL(location, baseUrl).pathname === next) continue;
    // A form that failed validation comes back with its invalid fields marked.
    const invalid =
      response.status === 302
        ? []
        : startTags(await response.text(), "input")
            .filter((input) => input["aria-invalid"] === "true")
            .map((input) => input.name);
    return (
      `POST ${step.path} answered ${response.status}${where(response)}, not a redirect to ${next}` +
      (invalid.length ? `; invalid fields: ${invalid.join(", ")}` : "")
    );
  }
  return null;
}

const where = (response) => (response.headers.get("location") ? ` to ${response.headers.get("location")}` : "");
