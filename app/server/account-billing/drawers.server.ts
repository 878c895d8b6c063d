import { randomUUID } from "node:crypto";
import { idempotencyKeyOf } from "~/server/platform/forms.server";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { validationError, type ValidationErrorResponseData } from "remix-validated-form";
import { ONE_CARD_ONLY } from "~/domain/payment-step";
import { SECRET_CARD_FIELDS, type CardFormInput } from "~/domain/billing-forms";
import type {
  BillingProfileDrawerData,
  CardDrawerData,
  ContactOptions,
  FormFailure,
  ShippingDrawerData,
} from "~/domain/billing-views";
import { billingProfileValidator, cardFormValidator, shippingAddressValidator } from "~/domain/billing-validators";
import {
  addCardFor,
  billingProfileDefaults,
  cardEntryFor,
  type CardChangeOutcome,
  clearShipping,
  findOwnSource,
  finishCardSaveFor,
  hasCard,
  OneCardLimitError,
  replaceCardFor,
  saveBillingProfile,
  saveShipping,
  shippingDefaults,
  sourceView,
} from "./billing-details.server";
import { readMemberForm, requireMember, type Scope, redirectWithToast } from "~/server/accounts/index.server";
import { ProviderError, type PaymentSource } from "~/server/billing/index.server";
import { SETUP_RETURN } from "~/server/cards/index.server";
import { COUNTRY_OPTIONS, DIAL_CODE_OPTIONS } from "./contact-options.server";

/**
 * The loaders and actions of the billing drawers (the payment-method drawers, the billing profile's and the
 * shipping address's). Each takes where the drawer is mounted (DrawerMount: the URL it closes to, and the check of
 * the parent page's thing when there is one), so any page can mount a drawer as its own child route with a route
 * module of a few lines:
 *
 *   export const loader = (args: LoaderFunctionArgs) => newCardDrawer.loader(args, "/store/subscribe/billing");
 *   export const action = (args: ActionFunctionArgs) => newCardDrawer.action(args, "/store/subscribe/billing");
 *   export { NewCardDrawer as default, DrawerErrorBoundary as ErrorBoundary } from "~/ui/billing/drawers";
 *
 * On success an action redirects to that URL with a toast saying what changed; a refusal comes back as 422 with
 * the field errors, a message for the whole form (formError) and what was typed (never the card itself).
 */

const MESSAGES = {
  cardAdded: "Successfully added new payment method.",
  cardReplaced: "Successfully replaced new payment method.",
  cardFailed: "Failed to add payment method.",
  cardAuthenticationUsed: "This card authentication was used already: the card was saved once.",
  profileSaved: "Successfully updated billing profile.",
  profileFailed: "Failed to update billing profile.",
  shippingSaved: "Successfully updated shipping address.",
  shippingCleared: "Your shipping address is now the same as your billing address.",
} as const;

/** What a failed save says: the provider's own message when it gave one (a card's decline reason), else the page's. */
function failureText(fallback: string, error: ProviderError): string {
  return error.providerMessage ?? fallback;
}

type FailureData = ValidationErrorResponseData & FormFailure;

function refusal(formError: string, fieldErrors: Record<string, string>, submitted: Record<string, unknown>) {
  return json<FailureData>({ fieldErrors, repopulateFields: submitted, formError }, { status: 422 });
}

/** What was typed, minus the card: card data is never written back into a page. */
function withoutCard(submitted: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(submitted).filter(([field]) => !(SECRET_CARD_FIELDS as readonly string[]).includes(field)),
  );
}

const CONTACT_OPTIONS: ContactOptions = { countries: COUNTRY_OPTIONS, dialCodes: DIAL_CODE_OPTIONS };

const notFound = () => json({ message: "This payment method does not exist or is not yours." }, { status: 404 });

/** A card form's data; the card entry is made for the organization's card (or for the one it replaces). */
async function cardDrawerValues(scope: Scope, closeTo: string, replacing?: PaymentSource): Promise<CardDrawerData> {
  const idempotencyKey = randomUUID();
  const { user } = scope;
  return {
    closeTo,
    entry: await cardEntryFor(scope, replacing ?? null, idempotencyKey),
    idempotencyKey,
    defaults: { first_name: user.firstName, last_name: user.lastName, set_as_primary: true },
    replacing: replacing ? sourceView(replacing) : undefined,
    countries: COUNTRY_OPTIONS,
  };
}

const cardDrawerData = async (scope: Scope, closeTo: string, replacing?: PaymentSource) =>
  json<CardDrawerData>(await cardDrawerValues(scope, closeTo, replacing));

/** Adds or replaces the card, coming back to `closeTo` from the bank's page when the bank asks. */
type CardChange = (
  scope: Scope,
  formData: FormData,
  input: CardFormInput,
  closeTo: string,
) => Promise<CardChangeOutcome>;

/** What a card form's post came to: the change's outcome, or the answer for the form (its errors, or where to go). */
type CardOutcome<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Validates a card form and runs the change; the one-card limit and refusals become the form's answer. */
async function runCardChange<T>(
  request: Request,
  closeTo: string,
  formData: FormData,
  change: (input: CardFormInput) => Promise<T>,
): Promise<CardOutcome<T>> {
  const result = await cardFormValidator.validate(formData);
  if (result.error) return { ok: false, response: validationError(result.error, withoutCard(result.submittedData)) };
  try {
    return { ok: true, value: await change(result.data) };
  } catch (error) {
    if (error instanceof OneCardLimitError)
      return {
        ok: false,
        response: await redirectWithToast(request, closeTo, { kind: "info", message: ONE_CARD_ONLY }),
      };
    if (!(error instanceof ProviderError)) throw error;
    // The provider's words go next to the card when they are about it, and the form says what failed.
    if (error.field === "card" && error.providerMessage) {
      return {
        ok: false,
        response: refusal(MESSAGES.cardFailed, { card: error.providerMessage }, withoutCard(result.submittedData)),
      };
    }
    return {
      ok: false,
      response: refusal(failureText(MESSAGES.cardFailed, error), {}, withoutCard(result.submittedData)),
    };
  }
}

/**
 * Where a drawer is mounted: the URL it closes to; over a page about one of the organization's things (the
 * subscription an update changes, the invoice Pay now pays), also the check that the URL's thing is the
 * organization's (404 otherwise). The drawer makes that check itself: its loader also runs alone (single fetch
 * asks for one route's data), without the parent page's.
 */
export type DrawerMount = string | { closeTo: string; requireParent: (scope: Scope) => Promise<unknown> };

/** Where the drawer closes to, once the check of its parent page's thing (if it has one) holds. */
async function closeToOf(scope: Scope, mount: DrawerMount): Promise<string> {
  if (typeof mount === "string") return mount;
  await mount.requireParent(scope);
  return mount.closeTo;
}

/** The member who may see the drawer (an Owner or a Billing admin), and where it closes to. */
async function openDrawer(request: Request, mount: DrawerMount) {
  const member = await requireMember(request, "billing.manage");
  return { member, closeTo: await closeToOf(member, mount) };
}

/** A drawer's post: the member who may send it, the form (its CSRF token checked), and where it closes to. */
async function readDrawerForm(request: Request, mount: DrawerMount) {
  const { member, formData } = await readMemberForm(request, "billing.manage");
  return { member, formData, closeTo: await closeToOf(member, mount) };
}

/**
 * Validates a card form, runs the change and answers with its toast, the bank's page when the bank asks the
 * cardholder to authenticate the card, the one-card limit, or the refusal.
 */
async function cardAction({ request }: ActionFunctionArgs, mount: DrawerMount, change: CardChange, saved: string) {
  const { member, formData, closeTo } = await readDrawerForm(request, mount);
  const outcome = await runCardChange(request, closeTo, formData, (input) => change(member, formData, input, closeTo));
  if (!outcome.ok) return outcome.response;
  if (outcome.value.status === "requires_action") return redirect(outcome.value.redirectUrl);
  return redirectWithToast(request, closeTo, { kind: "success", message: saved });
}

/**
 * A step's inline new-card form (the trials' payment step when there is no card yet): the new card's id, or
 * the form's answer (field errors, the refusal, or back to `stepUrl` when a card is on file already).
 */
export async function addCardInStep(
  request: Request,
  stepUrl: string,
  scope: Scope,
  formData: FormData,
): Promise<CardOutcome<string>> {
  const added = await runCardChange(request, stepUrl, formData, (input) =>
    addCardFor(scope, formData, input, idempotencyKeyOf(formData), stepUrl),
  );
  if (!added.ok) return added;
  const { value } = added;
  return value.status === "saved"
    ? { ok: true, value: value.source.id }
    : { ok: false, response: redirect(value.redirectUrl) };
}

/** The inline new-card form's data (the drawer's, without a place to close to). */
export const newCardFormData = async (scope: Scope) => {
  const { closeTo: _closeTo, ...data } = await cardDrawerValues(scope, "");
  return data;
};

/** 'Create new payment method'. With a card on file there is nothing to add (one card at most): back with the reason. */
export const newCardDrawer = {
  async loader({ request }: LoaderFunctionArgs, mount: DrawerMount) {
    const { member, closeTo } = await openDrawer(request, mount);
    if (await hasCard(member))
      throw await redirectWithToast(request, closeTo, { kind: "info", message: ONE_CARD_ONLY });
    return cardDrawerData(member, closeTo);
  },
  action(args: ActionFunctionArgs, mount: DrawerMount) {
    return cardAction(
      args,
      mount,
      (scope, formData, input, closeTo) => addCardFor(scope, formData, input, idempotencyKeyOf(formData), closeTo),
      MESSAGES.cardAdded,
    );
  },
};

async function ownSourceOr404(scope: Scope, sourceId: string | undefined) {
  const source = sourceId ? await findOwnSource(scope, sourceId) : null;
  if (!source) throw notFound();
  return source;
}

/** 'Replace payment method' for the card :sourceId, which must be the organization's (404 otherwise). */
export const replaceCardDrawer = {
  async loader({ request, params }: LoaderFunctionArgs, mount: DrawerMount) {
    const { member, closeTo } = await openDrawer(request, mount);
    const source = await ownSourceOr404(member, params.sourceId);
    return cardDrawerData(member, closeTo, source);
  },
  action(args: ActionFunctionArgs, mount: DrawerMount) {
    return cardAction(
      args,
      mount,
      async (scope, formData, input, closeTo) => {
        const source = await ownSourceOr404(scope, args.params.sourceId);
        return replaceCardFor(scope, source, formData, input, idempotencyKeyOf(formData), closeTo);
      },
      MESSAGES.cardReplaced,
    );
  },
};

/**
 * The return from the card provider's bank page (`setup_intent` names the setup): the card saved once, with the
 * toast of the drawer it was posted from, on the page that drawer closes to; a failed authentication keeps the
 * old card and says why; a setup that is not the organization's is not found.
 */
export async function cardReturnLoader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "billing.manage");
  // Stripe's bank page names the SetupIntent; its Checkout page names the session, which names the setup.
  const query = new URL(request.url).searchParams;
  const setupId = query.get(SETUP_RETURN.setup) ?? query.get(SETUP_RETURN.checkout);
  const back = setupId ? await finishCardSaveFor(member, setupId) : null;
  if (!back) throw json({ message: "There is no such card authentication." }, { status: 404 });
  if (back.status === "requires_action") return redirect(back.redirectUrl);
  const toast =
    back.status === "saved"
      ? { kind: "success" as const, message: back.replaced ? MESSAGES.cardReplaced : MESSAGES.cardAdded }
      : back.status === "used"
        ? { kind: "info" as const, message: MESSAGES.cardAuthenticationUsed }
        : { kind: "error" as const, message: [MESSAGES.cardFailed, back.message].filter(Boolean).join(" ") };
  return redirectWithToast(request, back.closeTo, toast);
}

/** 'Update Billing Profile': its form, or 'Error fetching billing profile.' when the customer cannot be read. */
export const billingProfileDrawer = {
  async loader({ request }: LoaderFunctionArgs, mount: DrawerMount) {
    const { member, closeTo } = await openDrawer(request, mount);
    try {
      return json<BillingProfileDrawerData>({
        closeTo,
        defaults: await billingProfileDefaults(member),
        ...CONTACT_OPTIONS,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return json<BillingProfileDrawerData>({ closeTo, defaults: null, ...CONTACT_OPTIONS });
    }
  },
  async action({ request }: ActionFunctionArgs, mount: DrawerMount) {
    const { member, formData, closeTo } = await readDrawerForm(request, mount);
    const result = await billingProfileValidator.validate(formData);
    if (result.error) return validationError(result.error, result.submittedData);
    try {
      await saveBillingProfile(member, result.data);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return refusal(failureText(MESSAGES.profileFailed, error), {}, result.submittedData);
    }
    return redirectWithToast(request, closeTo, { kind: "success", message: MESSAGES.profileSaved });
  },
};

/** 'Update Shipping Address': save one, or go back to the billing address (intent "clear"). */
export const shippingDrawer = {
  async loader({ request }: LoaderFunctionArgs, mount: DrawerMount) {
    const { member, closeTo } = await openDrawer(request, mount);
    return json<ShippingDrawerData>({
      closeTo,
      defaults: shippingDefaults(member),
      hasShippingAddress: member.organization.shippingAddress !== null,
      ...CONTACT_OPTIONS,
    });
  },
  async action({ request }: ActionFunctionArgs, mount: DrawerMount) {
    const { member, formData, closeTo } = await readDrawerForm(request, mount);
    if (formData.get("intent") === "clear") {
      await clearShipping(member);
      return redirectWithToast(request, closeTo, { kind: "success", message: MESSAGES.shippingCleared });
    }
    const result = await shippingAddressValidator.validate(formData);
    if (result.error) return validationError(result.error, result.submittedData);
    await saveShipping(member, result.data);
    return redirectWithToast(request, closeTo, { kind: "success", message: MESSAGES.shippingSaved });
  },
};
