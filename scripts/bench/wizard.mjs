import { startTags } from "./html.mjs";

const BASE = "/store/subscribe";
const UPDATE_BASE = "/licenses/sub_demo_core_monthly/update";

/** The card the page preselects (the primary one, else the first usable one). */
function preselectedCard(inputs) {
  const card = inputs.find((input) => input.name === "payment_source_id" && "checked" in input);
  return card ? { payment_source_id: card.value } : null;
}

/**
 * A wizard's steps, in order, and what each one's form posts besides its csrf field and intent=next (the
 * fields are those of the step's route module). A step's page
 * redirects to the first earlier step that is not done, so the pages can only be measured once the
 * steps before them have been posted. The last step is only fetched: posting it would place the order.
 */
const NEW_SUBSCRIPTION_STEPS = [
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
  { path: `${BASE}/billing`, fields: preselectedCard },
  { path: `${BASE}/order` },
];

/** The update wizard on the demo's Core monthly license: 5 users added; the Review is only fetched. */
const UPDATE_STEPS = [
  { path: `${UPDATE_BASE}/product`, fields: () => ({ plan: "core-monthly", addedUsers: "5" }) },
  { path: `${UPDATE_BASE}/billing`, fields: preselectedCard },
  { path: `${UPDATE_BASE}/review` },
];

/**
 * The create-cloud-Hub wizard (app/routes/_portal.hubs.new.*.tsx): a free subdomain (checked with the Hub
 * simulator on Next), the first license the list offers, an administrator. The review is only fetched:
 * submitting it would deploy a Hub.
 */
const CLOUD_HUB_STEPS = [
  { path: "/hubs/new/url", fields: () => ({ subdomain: "bench-clinic", hubRegion: "1" }) },
  {
    path: "/hubs/new/license",
    fields: (inputs) => {
      const license = inputs.find((input) => input.name === "licenseId");
      return license ? { licenseId: license.value } : null;
    },
  },
  {
    path: "/hubs/new/admin",
    fields: () => ({
      firstName: "Bench",
      lastName: "Admin",
      userName: "bench-admin",
      email: "bench-admin@example.com",
      phoneNumber: "",
      password: "Bench-admin-1",
      confirmPassword: "Bench-admin-1",
    }),
  },
  { path: "/hubs/new/review" },
];

/** The hidden start date the trial's Hub step carries (today, as the page set it), and the trial's figures. */
const trialFigures = (inputs) => ({
  nodes: "5",
  employees: "40",
  duration: "20",
  startDate: inputs.find((input) => input.name === "startDate")?.value ?? "",
});
const TRIAL_ADDRESS = {
  name: "Bench Person",
  company: "Bench Org",
  street: "1 Main Street",
  city: "Springfield",
  state: "IL",
  zipcode: "62701",
  country: "US",
};

/** The on-premise trial with 3 tokens paid with the card on file; 'Build My Trial' is only fetched. */
const ONPREMISE_TRIAL_STEPS = [
  { path: "/trial/onpremise/welcome", fields: () => ({}) },
  { path: "/trial/onpremise/license", fields: trialFigures },
  { path: "/trial/onpremise/hardware", fields: () => ({ tokens: "3", sensors: "0" }) },
  { path: "/trial/onpremise/address", fields: () => TRIAL_ADDRESS },
  { path: "/trial/onpremise/payment", fields: preselectedCard },
  { path: "/trial/onpremise/review", fields: () => ({}) },
  { path: "/trial/onpremise/order" },
];

/** The cloud trial without hardware (the distributor has no card, and needs none then). */
const CLOUD_TRIAL_STEPS = [
  { path: "/trial/cloud/welcome", fields: () => ({}) },
  {
    path: "/trial/cloud/instance",
    fields: (inputs) => ({ ...trialFigures(inputs), subdomain: `bench-${Date.now().toString(36)}`, hubRegion: "1" }),
  },
  {
    path: "/trial/cloud/admin",
    fields: () => ({
      userName: "bench-admin",
      firstName: "Bench",
      lastName: "Person",
      phoneNumber: "",
      email: "bench@example.com",
      password: "Bench1234",
      confirmPassword: "Bench1234",
    }),
  },
  { path: "/trial/cloud/hardware", fields: () => ({ tokens: "0", sensors: "0" }) },
  { path: "/trial/cloud/address", fields: () => TRIAL_ADDRESS },
  { path: "/trial/cloud/payment", fields: () => ({}) },
  { path: "/trial/cloud/review", fields: () => ({}) },
  { path: "/trial/cloud/order" },
];

/**
 * The wizards the bench walks and measures, each as its account (the customer unless `account` says);
 * their steps count as wizard steps in the performance goals.
 */
export const WIZARDS = [
  { name: "New-subscription wizard", steps: NEW_SUBSCRIPTION_STEPS },
  { name: "Update-license wizard (the demo's Core monthly license)", steps: UPDATE_STEPS },
  { name: "Create-cloud-Hub wizard", steps: CLOUD_HUB_STEPS },
  { name: "On-premise trial wizard", steps: ONPREMISE_TRIAL_STEPS },
  { name: "Cloud trial wizard", steps: CLOUD_TRIAL_STEPS, account: "distributor@example.com" },
];

/** The new-subscription wizard's plan step, the wizard page the load test measures. */
export const PLAN_STEP = NEW_SUBSCRIPTION_STEPS[0].path;

/**
 * Walks the wizard as a browser without JavaScript would, with the signed-in user's cookies: GET each
 * step's page, then POST its form (with the page's csrf token) and expect a 302 to the next step. Stops
 * at the first step that goes wrong and returns why, or null when every step up to the order page is done.
 */
export async function walkWizard(baseUrl, jar, steps) {
  for (const [index, step] of steps.entries()) {
    if (!step.fields) return null;
    const next = steps[index + 1].path;
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
