import { json, redirect } from "@remix-run/node";
import { choosePayment, loadPaymentStep, paymentForPage } from "~/server/account-billing/index.server";
import type { Scope } from "~/server/accounts/index.server";
import type { DraftOwner } from "~/server/platform/wizards/drafts.server";

/** The part of a wizard the payment step uses: its draft keeps the chosen card. */
interface PaymentWizard<Step extends string> {
  load(owner: DraftOwner, step: Step): Promise<{ data: { paymentSourceId: string | null } }>;
  save(owner: DraftOwner, changes: { paymentSourceId: string }): Promise<unknown>;
  complete(owner: DraftOwner, step: Step, changes: { paymentSourceId: string }): Promise<Response>;
}

/** The shared payment step in a wizard: the card chosen earlier stays chosen while on file. */
export async function wizardPaymentStep<Step extends string>(scope: Scope, wizard: PaymentWizard<Step>, step: Step) {
  const { data: draft } = await wizard.load(scope, step);
  const payment = paymentForPage(await loadPaymentStep(scope));
  const chosen =
    payment.status === "ready" && payment.sources.some((source) => source.id === draft.paymentSourceId)
      ? draft.paymentSourceId
      : null;
  return json(payment.status === "ready" && chosen ? { ...payment, preselectedSourceId: chosen } : payment);
}

/** Next and Previous both save the chosen card; only Next needs it to be valid (and the addresses). */
export async function chooseWizardPayment<Step extends string>(
  { member, formData, intent }: { member: Scope; formData: FormData; intent: string },
  wizard: PaymentWizard<Step>,
  step: Step,
  previousTo: string,
) {
  const choice = await choosePayment(member, formData);
  if (intent === "previous") {
    if (choice.ok) await wizard.save(member, { paymentSourceId: choice.paymentSourceId });
    return redirect(previousTo);
  }
  if (!choice.ok) return json({ message: choice.message }, { status: 422 });
  return wizard.complete(member, step, { paymentSourceId: choice.paymentSourceId });
}
