import { Anchor, Text, Title } from "~/ui/typography";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { asNewQuote, FIX_ERRORS, isNewQuote, NEW_CUSTOMER } from "~/domain/subscription-steps";
import { customerUrls } from "~/domain/customers";
import { CYCLE_LABELS, CYCLES, type Cycle } from "~/domain/subscription";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import {
  cycleSwitch,
  planStepCustomer,
  planStepCustomers,
  purchaseRight,
  subscriptionWizardOf,
} from "~/server/orders/new-subscription-wizard.server";
import { offerFor } from "~/server/orders/offers.server";
import { Button } from "~/ui/button";
import { SelectField, TextField } from "~/ui/fields";
import { Radio, RadioGroup } from "~/ui/inputs";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { useValid } from "~/ui/use-valid";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

const validator = lazyValidator(() => import("~/domain/new-subscription").then((module) => module.planStepSchema));

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const { wizard, customer } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "plan");
  const [offer, customers] = await Promise.all([
    offerFor(member.organization, data.cycle),
    planStepCustomers(member, customer),
  ]);
  // Opened from the Hubs page, the license is for a cloud Hub; the form carries that, as a page read never writes.
  const fromHubs = new URL(request.url).searchParams.get("origin") === "cloud-hubs";
  // An organization's own quote is for the organization: no name is asked (the server fills it in when posted).
  const newQuote = isNewQuote(request.url);
  const quoteFor = customers === null && newQuote ? member.organization.name : null;
  return {
    origin: fromHubs ? "cloud-hubs" : data.origin,
    cycle: data.cycle,
    plans: offer.plans,
    customers,
    quoteFor,
    // A distributor's quote is for a customer it has added: 'A new customer' is for orders only.
    offersNewCustomer: !newQuote,
    defaults: {
      tier: data.tier,
      organization: customer.kind === "existing" ? "" : (quoteFor ?? data.organization),
      users: data.users,
      customer: customer.kind === "existing" ? customer.id : customer.kind === "new" ? NEW_CUSTOMER : "",
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData, intent } = await readMemberForm(request, purchaseRight(request));
  const { wizard, quote } = await subscriptionWizardOf(member, request);
  // A quote's order is the quote's: its plan is not chosen here.
  if (quote) return redirect(wizard.urlOf("billing"));
  const origin = formData.get("origin") === "cloud-hubs" ? { origin: "cloud-hubs" } : {};
  const newQuote = isNewQuote(request.url);
  const switched = cycleSwitch(intent, formData);
  if (switched) {
    await wizard.save(member, { ...switched, ...origin });
    const planUrl = wizard.urlOf("plan");
    return redirect(newQuote ? asNewQuote(planUrl) : planUrl);
  }
  // A distributor's order is for one of its end customers: the license's organization is the chosen customer's.
  const chosen = await planStepCustomer(member, formData, { newQuote });
  if ("error" in chosen) {
    const submitted = Object.fromEntries(formData);
    return validationError({ fieldErrors: { customer: chosen.error }, formId: "plan" }, submitted);
  }
  if (chosen.organization !== null) formData.set("organization", chosen.organization);
  const result = await validator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  // Moving to another customer's draft takes along what this step showed: the billing period and the origin.
  const { data } = await wizard.read(member);
  return chosen.wizard.complete(member, "plan", { cycle: data.cycle, origin: data.origin, ...result.data, ...origin });
}

const PERIOD: Record<Cycle, string> = { monthly: "month", yearly: "year" };

export default function PlanStep() {
  const { origin, cycle, plans, customers, quoteFor, offersNewCustomer, defaults } = useLoaderData<typeof loader>();
  const failedOnServer = Boolean(useActionData<typeof action>());
  const [tier, setTier] = useState(defaults.tier);
  const [organization, setOrganization] = useState(defaults.organization);
  const [customer, setCustomer] = useState(defaults.customer);
  const [users, setUsers] = useState(String(defaults.users));
  const plan = plans.find((item) => item.tier === tier) ?? plans[0];
  const chosenName = customers?.customers.find((choice) => choice.id === customer)?.name;
  // Live validity needs JavaScript; without it Next stays enabled and the server says what to fix.
  const hydrated = useHydrated();
  const valid =
    useValid(validator, { tier, organization: chosenName ?? organization, users }) &&
    (!hydrated || !customers || customer !== "");
  const quantity = Number.isInteger(Number(users)) && Number(users) > 0 ? Number(users) : 0;

  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} id="plan" noValidate>
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
        {customers ? (
          <CustomerChoice
            customers={customers}
            offersNew={offersNewCustomer}
            customer={customer}
            onCustomer={setCustomer}
            onName={setOrganization}
          />
        ) : quoteFor !== null ? (
          <>
            <Text>
              The quote is for <strong>{quoteFor}</strong>.
            </Text>
            {/* For the form's own check before it posts; the server names the organization itself. */}
            <input type="hidden" name="organization" value={quoteFor} />
          </>
        ) : (
          <TextField
            name="organization"
            label="Organization name the license is for"
            required
            onChange={(event) => setOrganization(event.currentTarget.value)}
          />
        )}
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

/**
 * A distributor's choice of the end customer the license is for: one of its customers, or a new one named here
 * (added when the order is placed). Without JavaScript both fields post, and the server reads the name only for a
 * new customer.
 */
function CustomerChoice({
  customers,
  offersNew,
  customer,
  onCustomer,
  onName,
}: {
  customers: { customers: { id: string; name: string }[]; more: boolean };
  offersNew: boolean;
  customer: string;
  onCustomer: (customer: string) => void;
  onName: (name: string) => void;
}) {
  const hydrated = useHydrated();
  return (
    <Stack gap="xs">
      <SelectField
        name="customer"
        label="The customer the license is for"
        required
        w={420}
        onChange={(event) => onCustomer(event.currentTarget.value)}
        data={[
          { value: "", label: "-- Choose a customer --" },
          ...customers.customers.map((choice) => ({ value: choice.id, label: choice.name })),
          ...(offersNew ? [{ value: NEW_CUSTOMER, label: "A new customer" }] : []),
        ]}
      />
      {customers.more ? (
        <Text size="sm">
          Not listed? Find the customer in <Anchor to={customerUrls.list}>your customers</Anchor> and buy from its page.
        </Text>
      ) : null}
      {offersNew && (!hydrated || customer === NEW_CUSTOMER) ? (
        <TextField
          name="organization"
          label="The new customer's company name"
          description="Only for a new customer: it is added to your customers when the order is placed."
          w={420}
          onChange={(event) => onName(event.currentTarget.value)}
        />
      ) : (
        // The form's own check before it posts wants the license's organization: the chosen customer's name.
        <input
          type="hidden"
          name="organization"
          value={customers.customers.find((choice) => choice.id === customer)?.name ?? ""}
        />
      )}
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;
