import { Button } from "@mantine-parts/components/Button/Button.mjs";
import { Group } from "@mantine-parts/components/Group/Group.mjs";
import { Radio } from "@mantine-parts/components/Radio/Radio.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { Title } from "@mantine-parts/components/Title/Title.mjs";
import { withZod } from "@remix-validated-form/with-zod";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ValidatedForm, validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { FIX_ERRORS, cycleSchema, planStepSchema } from "~/domain/new-subscription";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { CYCLE_LABELS, CYCLES, type Cycle } from "~/domain/subscription";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { subscriptionWizard } from "~/server/wizards/new-subscription.server";
import { offerFor } from "~/server/wizards/offers.server";
import { TextField } from "~/ui/fields";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";

const validator = withZod(planStepSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { data } = subscriptionWizard.load(user.id, "plan");
  const offer = await offerFor(user, data.cycle);
  // Opened from the Hubs page, the license is for a cloud Hub; the form carries that, as a page read never writes.
  const fromHubs = new URL(request.url).searchParams.get("origin") === "cloud-hubs";
  return json({
    origin: fromHubs ? "cloud-hubs" : data.origin,
    cycle: data.cycle,
    plans: offer.plans,
    defaults: { tier: data.tier, organization: data.organization, users: data.users },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, formData, intent } = await readUserForm(request);
  const origin = formData.get("origin") === "cloud-hubs" ? { origin: "cloud-hubs" } : {};
  const cycle = cycleSchema.safeParse(intent.replace(/^cycle-/, ""));
  if (intent.startsWith("cycle-") && cycle.success) {
    // Switching the cycle keeps what was typed: whatever of it is valid is saved with the new cycle.
    const typed = planStepSchema.partial().safeParse(Object.fromEntries(formData));
    subscriptionWizard.save(user.id, { cycle: cycle.data, ...origin, ...(typed.success ? typed.data : {}) });
    return redirect(subscriptionStepUrl("plan"));
  }
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  return subscriptionWizard.complete(user.id, "plan", { ...result.data, ...origin });
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
  const valid = !useHydrated() || planStepSchema.safeParse({ tier, organization, users }).success;
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
        <Radio.Group name="tier" label="Plan" value={tier} onChange={(value) => setTier(plans.find((item) => item.tier === value)?.tier ?? tier)} required>
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
        </Radio.Group>
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
      <StepActions nextLabel="Next: Hosting" disabledReason={valid ? null : FIX_ERRORS} hint={failedOnServer ? FIX_ERRORS : null} />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
