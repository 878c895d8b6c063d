import { json, redirect } from "@remix-run/node";
import { choosePayment, loadPaymentStep, paymentForPage } from "../account-billing.server";
import type { UserRecord } from "../users.server";

/** The part of a wizard the payment step uses: its draft keeps the chosen card. */
interface PaymentWizard<Step extends string> {
  load(ownerId: string, step: Step): { data: { paymentSourceId: string | null } };
  save(ownerId: string, changes: { paymentSourceId: string }): unknown;
  complete(ownerId: string, step: Step, changes: { paymentSourceId: string }): Response;
}

/** The shared payment step in a wizard: the card chosen earlier stays chosen while on file. */
export async function wizardPaymentStep<Step extends string>(
  user: UserRecord,
  wizard: PaymentWizard<Step>,
  step: Step,
) {
  const { data: draft } = wizard.load(user.id, step);
  const payment = paymentForPage(await loadPaymentStep(user));
  const chosen =
    payment.status === "ready" && payment.sources.some((source) => source.id === draft.paymentSourceId)
      ? draft.paymentSourceId
      : null;
  return json(payment.status === "ready" && chosen ? { ...payment, preselectedSourceId: chosen } : payment);
}

/** Next and Previous both save the chosen card; only Next needs it to be valid (and the addresses). */
export async function chooseWizardPayment<Step extends string>(
  { user, formData, intent }: { user: UserRecord; formData: FormData; intent: string },
  wizard: PaymentWizard<Step>,
  step: Step,
  previousTo: string,
) {
  const choice = await choosePayment(user, formData);
  if (intent === "previous") {
    if (choice.ok) wizard.save(user.id, { paymentSourceId: choice.paymentSourceId });
    return redirect(previousTo);
  }
  if (!choice.ok) return json({ message: choice.message }, { status: 422 });
  return wizard.complete(user.id, step, { paymentSourceId: choice.paymentSourceId });
}
