import { Text, Title } from "~/ui/typography";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { FIX_ERRORS, subscriptionStepUrl } from "~/domain/subscription-steps";
import { CYCLE_LABELS, CYCLES, type Cycle } from "~/domain/subscription";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { cycleSwitch, subscriptionWizard } from "~/server/orders/new-subscription-wizard.server";
import { offerFor } from "~/server/orders/offers.server";
import { Button } from "~/ui/button";
import { TextField } from "~/ui/fields";
import { Radio, RadioGroup } from "~/ui/inputs";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { useValid } from "~/ui/use-valid";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

const validator = lazyValidator(() => import("~/domain/new-subscription").then((module) => module.planStepSchema));

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "purchase");
  const { data } = await subscriptionWizard.load(member, "plan");
  const offer = await offerFor(member.organization, data.cycle);
  // Opened from the Hubs page, the license is for a cloud Hub; the form carries that, as a page read never writes.
  const fromHubs = new URL(request.url).searchParams.get("origin") === "cloud-hubs";
  return {
    origin: fromHubs ? "cloud-hubs" : data.origin,
    cycle: data.cycle,
    plans: offer.plans,
    defaults: { tier: data.tier, organization: data.organization, users: data.users },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData, intent } = await readMemberForm(request, "purchase");
  const origin = formData.get("origin") === "cloud-hubs" ? { origin: "cloud-hubs" } : {};
  const switched = cycleSwitch(intent, formData);
  if (switched) {
    await subscriptionWizard.save(member, { ...switched, ...origin });
    return redirect(subscriptionStepUrl("plan"));
  }
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return subscriptionWizard.complete(member, "plan", { ...result.data, ...origin });
}

const PERIOD: Record<Cycle, string> = { monthly: "month", yearly: "year" };

export default function PlanStep() {
  const { origin, cycle, plans, defaults } = useLoaderData<typeof loader>();
  const failedOnServer = Boolean(useActionData<typeof action>());
  const [tier, setTier] = useState(defaults.tier);
  const [organization, setOrganization] = useState(defaults.organization);
  const [users, setUsers] = useState(String(defaults.users));
  const plan = plans.find((item) => item.tier === tier) ?? plans[0];
  // Live validity needs JavaScript; without it Next stays enabled and the server says what to fix.
  const valid = useValid(validator, { tier, organization, users });
  const quantity = Number.isInteger(Number(users)) && Number(users) > 0 ? Number(users) : 0;

  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      {origin ? <input type="hidden" name="origin" value={origin} /> : null}
      <Stack gap="md">
        <Title order={3}>Choose your plan</Title>
        <div role="group" aria-label="Billing cycle">
          <Group gap={0}>
            {CYCLES.map((option) => (
              <Button
                key={option}
                type="submit"
                name="intent"
                value={`cycle-${option}`}
                variant={option === cycle ? "filled" : "default"}
                aria-pressed={option === cycle}
              >
                {CYCLE_LABELS[option]}
              </Button>
            ))}
          </Group>
        </div>
        <RadioGroup
          name="tier"
          label="Plan"
          value={tier}
          onChange={(value) => setTier(plans.find((item) => item.tier === value)?.tier ?? tier)}
          required
        >
          <Stack gap="xs" mt="xs">
            {plans.map((item) => (
              <Radio
                key={item.id}
                value={item.tier}
                label={`${item.name} · ${formatCents(item.price)} per user per ${PERIOD[cycle]}`}
                description={item.description}
              />
            ))}
          </Stack>
        </RadioGroup>
        <TextField
          name="organization"
          label="Organization name the license is for"
          required
          onChange={(event) => setOrganization(event.currentTarget.value)}
        />
        <TextField
          name="users"
          label="Number of users"
          type="number"
          min={1}
          required
          w={200}
          onChange={(event) => setUsers(event.currentTarget.value)}
        />
        <Group gap="xl">
          <Text>
            Price per user: <strong>{formatCents(plan.price)}</strong> per {PERIOD[cycle]}
          </Text>
          <Text>
            Amount: <strong data-testid="plan-amount">{formatCents(plan.price * quantity)}</strong> per {PERIOD[cycle]}
          </Text>
        </Group>
      </Stack>
      <StepActions
        nextLabel="Next: Hosting"
        disabledReason={valid ? null : FIX_ERRORS}
        hint={failedOnServer ? FIX_ERRORS : null}
      />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
