import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Action } from "~/domain/access-policy";
import { WAITING_ON_FIELD, type AnotherCardData } from "~/domain/billing-views";
import {
  choosePayment,
  loadPaymentStep,
  paymentForPage,
  type DrawerMount,
} from "~/server/account-billing/index.server";
import { readMemberForm, requireMember, type Scope } from "~/server/accounts/index.server";
import { PAYMENT_RETURN } from "~/server/cards/port.server";
import { readForm } from "~/server/platform/forms.server";
import {
  chooseAnotherCard,
  ownedJob,
  resumeAfterBank,
  waitingOn,
  type PresentPaymentKinds,
} from "./present-payments.server";

/** A job's progress route as jobProgressRoute makes it: its page, with the job's view. */
interface ProgressRoute<Page extends { view: { waiting: unknown; retryRefused: string | null } }> {
  loader(args: LoaderFunctionArgs): Promise<Page>;
  action(args: ActionFunctionArgs): Promise<Response>;
}

/**
 * The progress page of a job that charges the customer while they are there, for one who may do what the job
 * does (`needs`): the bank's page sends the cardholder back to it (`payment_intent`), which starts the waiting job
 * again once (resumeAfterBank) and shows the page without the bank's parameters; while the job waits, the page
 * offers the organization's cards (with the card drawers mounted under it), and 'Choose another card' starts the
 * same job over on the one chosen.
 */
export function presentPaymentPages<Page extends { view: { waiting: unknown; retryRefused: string | null } }>(
  route: ProgressRoute<Page>,
  { kinds, needs }: { kinds: PresentPaymentKinds; needs: Action },
) {
  return {
    async loader(args: LoaderFunctionArgs) {
      const url = new URL(args.request.url);
      const jobId = args.params.jobId ?? "";
      const paymentIntentId = url.searchParams.get(PAYMENT_RETURN.payment);
      if (paymentIntentId) {
        const member = await requireMember(args.request, needs);
        await resumeAfterBank(member.organization.id, jobId, kinds, paymentIntentId);
        throw redirect(url.pathname);
      }
      const page = await route.loader(args);
      if (!page.view.waiting || page.view.retryRefused) return { ...page, cards: null };
      const member = await requireMember(args.request, needs);
      const seen = await waitingOn(member.organization.id, jobId, kinds);
      if (!seen) return { ...page, cards: null };
      return { ...page, cards: await anotherCardData(member, seen) };
    },
    async action(args: ActionFunctionArgs) {
      if ((await readForm(args.request.clone())).get("intent") !== "next") return route.action(args);
      const { member, formData } = await readMemberForm(args.request, needs);
      const jobId = args.params.jobId ?? "";
      await ownedJob(member.organization.id, jobId, kinds);
      const choice = await choosePayment(member, formData, undefined, { withAddresses: false });
      if (!choice.ok) return json({ message: choice.message }, { status: 422 });
      // A choice that lost to another (a second tab) starts nothing: the page shows the job as it now is.
      const seen = String(formData.get(WAITING_ON_FIELD) ?? "");
      await chooseAnotherCard(member.organization.id, jobId, kinds, choice.paymentSourceId, seen);
      return redirect(new URL(args.request.url).pathname);
    },
  };
}

/** What 'Choose another card' offers for a job that waits on the payment intent `waitingOn`: the member's cards. */
export const anotherCardData = async (member: Scope, waitingOn: string): Promise<AnotherCardData> => ({
  step: paymentForPage(await loadPaymentStep(member)),
  waitingOn,
});

/** Where a waiting job's card drawers are mounted: over its progress page, of the organization's own job only. */
export const waitingJobDrawerMount = (kinds: PresentPaymentKinds, jobId: string, closeTo: string): DrawerMount => ({
  closeTo,
  async requireParent(scope) {
    await ownedJob(scope.organization.id, jobId, kinds);
  },
});
