import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { UPDATE_INFO, planChoiceValue, type UpdateBase } from "~/domain/license-update";
import { lazyValidator } from "~/domain/lazy-validator";
import { FIX_ERRORS } from "~/domain/subscription-steps";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import {
  baseMoved,
  licenseUpdateWizard,
  planOptions,
  readSubscription,
} from "~/server/orders/license-update-wizard.server";
import { SelectField, TextField } from "~/ui/fields";
import { Alert, Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { useValid } from "~/ui/use-valid";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

/** The Product step's rules against the license's plan and users today. */
const productValidator = (base: UpdateBase) =>
  lazyValidator(() => import("~/domain/license-update-forms").then((module) => module.productStepSchema(base)));

/** Product: the plan and users today, the new plan and the users to add. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, "licenses.update");
  const subscriptionId = params.subscriptionId ?? "";
  const read = await readSubscription(member, subscriptionId);
  if ("error" in read) return json({ status: "error" as const, message: read.error });
  const { base } = read;
  const { data } = await licenseUpdateWizard(subscriptionId).load(member, "product", () => ({
    base,
    tier: base.tier,
    cycle: base.cycle,
  }));
  const plans = await planOptions(member.organization, base);
  return json({
    status: "ready" as const,
    base,
    current: plans.find((plan) => plan.value === planChoiceValue(base))?.name ?? read.subscription.planId,
    plans,
    moved: baseMoved(data, base),
    defaults: { plan: planChoiceValue(data), addedUsers: data.addedUsers },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, "licenses.update");
  const subscriptionId = params.subscriptionId ?? "";
  const read = await readSubscription(member, subscriptionId);
  if ("error" in read) return json({ formError: read.error }, { status: 503 });
  const result = await productValidator(read.base).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return licenseUpdateWizard(subscriptionId).complete(member, "product", { base: read.base, ...result.data });
}

const PERIOD = { month: "month", year: "year" } as const;

export default function ProductStep() {
  const data = useLoaderData<typeof loader>();
  if (data.status === "error") {
    return (
      <Alert color="red" role="alert">
        {data.message}
      </Alert>
    );
  }
  return <ProductForm {...data} />;
}

function ProductForm({
  base,
  current,
  plans,
  moved,
  defaults,
}: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { status: "ready" }>) {
  const actionData = useActionData<typeof action>();
  const formError = actionData && "formError" in actionData ? actionData.formError : null;
  const validator = useMemo(() => productValidator(base), [base]);
  const [plan, setPlan] = useState(defaults.plan);
  const [added, setAdded] = useState(String(defaults.addedUsers));
  const chosen = plans.find((option) => option.value === plan) ?? plans[0];
  const addedCount = Number.isInteger(Number(added)) && Number(added) > 0 ? Number(added) : 0;
  const users = base.quantity + addedCount;
  // Live validity needs JavaScript; without it Next stays enabled and the server says what to fix.
  const valid = useValid(validator, { plan, addedUsers: added });

  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Title order={3}>Product</Title>
        <Alert color="gatekeeper" variant="light">
          {UPDATE_INFO}
        </Alert>
        {moved ? (
          <Alert color="yellow" role="status">
            {moved}
          </Alert>
        ) : null}
        {formError ? (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        ) : null}
        <Text data-testid="current-plan">
          Current plan: <strong>{current}</strong> with <strong>{base.quantity}</strong> users
        </Text>
        <SelectField
          name="plan"
          label="New Plan"
          data={plans.map((option) => ({ value: option.value, label: option.name }))}
          onChange={(event) => setPlan(event.currentTarget.value)}
          w={320}
        />
        <Text size="sm" c="dimmed">
          {chosen.description}
        </Text>
        <TextField
          name="addedUsers"
          label="Additional Users"
          type="number"
          min={0}
          w={200}
          onChange={(event) => setAdded(event.currentTarget.value)}
        />
        <Group gap="xl">
          <Text>
            Price per user: <strong>{formatCents(chosen.price)}</strong> per {PERIOD[chosen.period]}
          </Text>
          <Text>
            Amount: <strong data-testid="plan-amount">{formatCents(chosen.price * users)}</strong> per{" "}
            {PERIOD[chosen.period]} for {users} users
          </Text>
        </Group>
      </Stack>
      <StepActions
        nextLabel="Next: Billing"
        disabledReason={valid ? null : FIX_ERRORS}
        hint={actionData && !formError ? FIX_ERRORS : null}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
