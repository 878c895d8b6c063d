import { json, redirect } from "@remix-run/node";
import {
  checkTrialDraft,
  hardwareCount,
  isoDay,
  isTrialHubType,
  trialDraftSchema,
  trialPath,
  TRIAL_HUB_TYPES,
  TRIAL_STEP_TITLES,
  TRIAL_STEPS_BY_TYPE,
  trialStepUrl,
  type TrialDraft,
  type TrialHubType,
  type TrialStep,
} from "~/domain/trial-wizard";
import { assertMay, readMemberForm, requireMember, type Scope, memberGuard } from "~/server/accounts/index.server";
import { kindHas, type Action } from "~/domain/access-policy";
import { customerSearch } from "~/domain/subscription-steps";
import { requireCustomer } from "~/server/resellers/index.server";
import { cardsAtStripe } from "~/server/cards/index.server";
import { findJobByKey, findOwnedJob, type AnyJobKind } from "~/server/platform/jobs/runner.server";
import { TRIAL_JOBS, TRIAL_STAGES, type CloudTrialInput, type OnPremiseTrialInput } from "./trial-job.server";
import { hasPendingTrial, mayStartTrial, quoteTrialHardware } from "./trials.server";
import { defineWizard, wizardLayout, type LoadedDraft } from "~/server/platform/wizards/kit.server";
import { orderKey, placeOnce, requestDigest } from "~/server/orders/index.server";
import { realNow } from "~/server/platform/real-time.server";

/**
 * The two trial wizards on the kit (decision 043): one draft each, the same rules with their own steps; a
 * distributor's trial for an end customer (`?customer=` on every step) has a draft of its own per customer, as an
 * order for one does.
 */
const definition = (hubType: TrialHubType) =>
  defineWizard({
    draftName: ({ customer }: TrialFor) => (customer ? `${hubType}-trial:customer:${customer}` : `${hubType}-trial`),
    steps: TRIAL_STEPS_BY_TYPE[hubType],
    stepTitles: TRIAL_STEP_TITLES,
    basePath: () => trialPath(hubType),
    search: ({ customer }: TrialFor) => customerSearch(customer),
    schema: trialDraftSchema,
    // The kit checks a draft synchronously, so the start date's window is today's in real time; the trial's
    // license takes its dates when the job makes it.
    check: (data: TrialDraft) => checkTrialDraft(hubType, data, isoDay(realNow())),
    // With hardware the payment step may show the new-card form, whose Stripe.js only a card page's document loads.
    documentSteps: (data: TrialDraft) => (cardsAtStripe() && hardwareCount(data) > 0 ? ["payment"] : []),
  });

/** Whom a trial is for: the organization itself (null), or its end customer (the customer's id). */
type TrialFor = { customer: string | null };

const DEFINITIONS = { cloud: definition("cloud"), onpremise: definition("onpremise") };
export type TrialWizard = ReturnType<(typeof DEFINITIONS)[TrialHubType]["at"]>;

/** The wizards of an organization's own trials. */
export const TRIAL_WIZARDS: Record<TrialHubType, TrialWizard> = {
  cloud: DEFINITIONS.cloud.at({ customer: null }),
  onpremise: DEFINITIONS.onpremise.at({ customer: null }),
};

/** The `?customer=` of a trial's URL: an end customer's id, or null (an empty one, the chooser's own choice, too). */
const customerQuery = (url: URL) => url.searchParams.get("customer") || null;

/** The `?customer=` of the request's trial URL, or null. */
export const trialCustomerQuery = (request: Request) => customerQuery(new URL(request.url));

/**
 * The right a trial's page checks: starting trials, or starting them for an end customer when its URL names one
 * (so that a refusal gives that right's reason).
 */
export const trialRight = (request: Request): Action =>
  customerQuery(new URL(request.url)) ? "customers.trials" : "trials.start";

/**
 * The end customer a trial's URL names, for a member who may start trials for the distributor's customers (else
 * 403 with the reason); another distributor's customer, or an unknown id, is a 404. Null for a trial of the
 * organization's own.
 */
export async function trialCustomer(
  member: Scope,
  customer: string | null,
): Promise<{ id: string; name: string } | null> {
  if (!customer) return null;
  assertMay(member, "customers.trials");
  const found = await requireCustomer(member.organization.id, customer);
  return { id: found.id, name: found.name };
}

/**
 * The wizard of the URL's hub type and customer, for an organization that may start a trial; any other is sent
 * to /trial, which says 'You have used up your trial.' (enforced here, not only by hiding the header button).
 */
export async function trialWizardFor(
  member: Scope,
  hubType: string | undefined,
  customerId: string | null,
): Promise<{ hubType: TrialHubType; wizard: TrialWizard; customer: { id: string; name: string } | null }> {
  if (!isTrialHubType(hubType)) throw json({ message: "There is no such trial." }, { status: 404 });
  const customer = await trialCustomer(member, customerId);
  if (!(await mayStartTrial(member.organization))) throw redirect("/trial");
  return { hubType, wizard: DEFINITIONS[hubType].at({ customer: customer?.id ?? null }), customer };
}

/** The wizards' layout route: a modal for members who may start a trial; Close goes back to the trial chooser. */
export const trialWizardLayout = wizardLayout(
  memberGuard,
  trialRight,
  async (member, params, url) => {
    const { hubType, wizard, customer } = await trialWizardFor(member, params.hubType, customerQuery(url));
    return { wizard, view: { hubType, customerName: customer?.name ?? null } };
  },
  "/trial",
);

/** The trial the draft describes, with its digest and the job's input; null while a step is missing. */
async function currentTrial(
  { user, organization }: Scope,
  hubType: TrialHubType,
  draft: LoadedDraft<TrialDraft>,
  customerId: string | null,
) {
  const { data } = draft;
  if (!draft.id || !data.nodes || !data.employees || !data.startDate || !data.address) return null;
  const ordersHardware = data.tokens + data.sensors > 0;
  if (ordersHardware && !data.paymentSourceId) return null;
  const quote = await quoteTrialHardware(organization, data);
  const common = {
    nodes: data.nodes,
    employees: data.employees,
    startDate: data.startDate,
    duration: data.duration,
    tokens: data.tokens,
    sensors: data.sensors,
    address: data.address,
    paymentSourceId: ordersHardware ? data.paymentSourceId : null,
    hardwareCents: quote.total,
    // The licensee is part of what is confirmed: a confirmation for one customer never starts another's trial.
    ...(customerId ? { customerId } : {}),
  };
  if (hubType === "onpremise") {
    const digest = requestDigest({ hubType, ...common });
    return {
      digest,
      quote,
      input: { draftId: draft.id, digest, ...common, startedBy: user.id } satisfies OnPremiseTrialInput,
    };
  }
  if (!data.administrator || !data.sealedPassword) return null;
  const hub = { subdomain: data.subdomain, region: data.region, administrator: data.administrator };
  const digest = requestDigest({ hubType, ...common, ...hub, sealedPassword: data.sealedPassword });
  return {
    digest,
    quote,
    input: {
      draftId: draft.id,
      digest,
      ...common,
      ...hub,
      adminPassword: data.sealedPassword,
      startedBy: user.id,
    } satisfies CloudTrialInput,
  };
}

/** What the Review and Order steps show: the draft, the hardware's cost, and the confirmation's key. */
export async function trialOrder(
  scope: Scope,
  hubType: TrialHubType,
  draft: LoadedDraft<TrialDraft>,
  customerId: string | null = null,
) {
  const current = await currentTrial(scope, hubType, draft, customerId);
  const quote = current?.quote ?? (await quoteTrialHardware(scope.organization, draft.data));
  return { quote, key: current && draft.id ? orderKey(TRIAL_JOBS[hubType], draft.id, current.digest) : null };
}

/** Whether a job is a trial, of either kind. */
const isTrialJob = (job: { kind: string }) => TRIAL_HUB_TYPES.some((type) => TRIAL_JOBS[type].name === job.kind);

/**
 * 'Build My Trial' on the URL's wizard: the trial of the confirmed draft, once. A repeated post of the same
 * confirmation (a double click, a refresh) answers with the trial it started, before anything else is
 * checked: by then that trial may have taken the user's one trial and cleared the draft. Two posts at once
 * may both miss it there; the one that did not place it looks again before answering anything else, since the
 * other's trial may have been placed, built and its draft cleared meanwhile. A trial that has taken its license
 * is never replaced, and a second trial is not queued beside one still running.
 */
export async function buildTrial(
  member: Scope,
  hubTypeParam: string | undefined,
  postedKey: string,
  customerId: string | null = null,
) {
  const placedTrial = async () => {
    const job = postedKey ? await findJobByKey(member.organization.id, postedKey) : null;
    return job && isTrialJob(job) ? job : null;
  };
  const repeated = await placedTrial();
  if (repeated) return { placed: repeated };
  let placement: Awaited<ReturnType<typeof placeNewTrial>>;
  try {
    placement = await placeNewTrial(member, hubTypeParam, postedKey, customerId);
  } catch (thrown) {
    const placed = await placedTrial();
    if (placed) return { placed };
    throw thrown;
  }
  if ("placed" in placement) return placement;
  const placed = await placedTrial();
  return placed ? { placed } : placement;
}

async function placeNewTrial(
  member: Scope,
  hubTypeParam: string | undefined,
  postedKey: string,
  customerId: string | null,
) {
  const { organization } = member;
  const { hubType, wizard, customer } = await trialStepOf(member, { hubType: hubTypeParam }, customerId, "order");
  const draft = await wizard.load(member, "order");
  // Hardware is bought with the organization's card: only a role that may buy orders it.
  if (draft.data.tokens + draft.data.sensors > 0) assertMay(member, "purchase");
  // Either kind of trial: the confirmation's input was made for the URL's kind by currentTrial.
  const kind: AnyJobKind = TRIAL_JOBS[hubType];
  const current = await currentTrial(member, hubType, draft, customer?.id ?? null);
  const isNew = current && draft.id && postedKey === orderKey(kind, draft.id, current.digest);
  // A distributor may run trials side by side; a regular customer's one trial may already be on its way (when
  // it is this confirmation's own, placed by another process meanwhile, buildTrial finds it by its key).
  if (isNew && !kindHas(organization.customerType, "trials.unlimited") && (await hasPendingTrial(organization.id)))
    return { usedUp: true as const };
  return placeOnce(kind, {
    scope: member,
    draftId: draft.id,
    postedKey,
    current,
    activity: (input) => ({
      action: "trial.started",
      summary: `Started a ${input.duration}-day GateKeeper Enterprise ${hubType === "cloud" ? "cloud" : "on-premise"} trial for ${input.nodes} users.`,
    }),
  });
}

type StepParams = { hubType?: string };

/** The wizard and step of the URL, for an organization that may start a trial; 404 for a step the wizard does not have. */
async function trialStepOf(scope: Scope, params: StepParams, customerId: string | null, step: TrialStep) {
  const opened = await trialWizardFor(scope, params.hubType, customerId);
  if (!TRIAL_STEPS_BY_TYPE[opened.hubType].includes(step))
    throw json({ message: "There is no such step." }, { status: 404 });
  return opened;
}

/**
 * A step's loader: the member (allowed to start trials, for the URL's customer if it names one), the wizard, the
 * customer's id (null for the organization's own trial), and the draft behind the step guard.
 */
export async function loadTrialStep(request: Request, params: StepParams, step: TrialStep) {
  const member = await requireMember(request, trialRight(request));
  const { hubType, wizard, customer } = await trialStepOf(member, params, customerQuery(new URL(request.url)), step);
  return {
    member,
    user: member.user,
    organization: member.organization,
    hubType,
    wizard,
    customerId: customer?.id ?? null,
    draft: await wizard.load(member, step),
  };
}

/** A step's action: the posted form (CSRF checked), the wizard, and the draft behind the step guard. */
export async function postTrialStep(request: Request, params: StepParams, step: TrialStep) {
  const { member, formData, intent } = await readMemberForm(request, trialRight(request));
  const { hubType, wizard, customer } = await trialStepOf(member, params, customerQuery(new URL(request.url)), step);
  return {
    member,
    formData,
    intent,
    hubType,
    wizard,
    customerId: customer?.id ?? null,
    draft: await wizard.load(member, step),
  };
}

/** The progress of one of the organization's trials, whichever kind (404 when it is not its own). */
export async function trialRun(ownerId: string, jobId: string) {
  const job = await findOwnedJob(ownerId, jobId);
  const hubType = TRIAL_HUB_TYPES.find((type) => TRIAL_JOBS[type].name === job?.kind);
  if (!job || !hubType) throw json({ message: "There is no such trial." }, { status: 404 });
  return { hubType, kind: TRIAL_JOBS[hubType], stages: TRIAL_STAGES[hubType] };
}

/** The payment step of the URL's trial (its customer's): where the card drawers mounted over it close to. */
export function trialPaymentUrl({ params, request }: { params: StepParams; request: Request }): string {
  if (!isTrialHubType(params.hubType)) throw json({ message: "There is no such trial." }, { status: 404 });
  return trialStepUrl(params.hubType, "payment", customerQuery(new URL(request.url)));
}
