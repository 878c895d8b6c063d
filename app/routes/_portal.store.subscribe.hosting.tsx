import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatCents } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { CLOUD_HUB_NEEDS_CLOUD_HOSTING } from "~/domain/subscription-steps";
import { offsiteAllowed, type Hosting } from "~/domain/subscription";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { purchaseRight, subscriptionWizardOf } from "~/server/orders/new-subscription-wizard.server";
import { offerFor } from "~/server/orders/offers.server";
import { Checkbox, Radio, RadioGroup } from "~/ui/inputs";
import { Alert, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";

const hostingValidator = lazyValidator(() =>
  import("~/domain/new-subscription").then((module) => module.hostingStepSchema),
);

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, purchaseRight(request));
  const { wizard } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "hosting");
  const offer = await offerFor(member.organization, data.cycle);
  return json({
    previousTo: wizard.urlOf("plan"),
    period: data.cycle === "yearly" ? "year" : "month",
    // From the Hubs page the license is for a cloud Hub, so on-premise is not offered.
    choices:
      data.origin === "cloud-hubs"
        ? [{ hosting: "cloud" as const, item: offer.hosting.cloud }]
        : [
            { hosting: "cloud" as const, item: offer.hosting.cloud },
            { hosting: "on-premise" as const, item: offer.hosting["on-premise"] },
          ],
    offsiteAccess: offer.offsiteAccess,
    defaults: { hosting: data.origin === "cloud-hubs" ? "cloud" : data.hosting, offsiteAccess: data.offsiteAccess },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, purchaseRight(request));
  const choice = await hostingValidator.validate(formData);
  const { wizard } = await subscriptionWizardOf(member, request);
  const { data } = await wizard.load(member, "hosting");
  if (choice.error) return json({ problem: "Please choose a Hub deployment." }, { status: 422 });
  if (data.origin === "cloud-hubs" && choice.data.hosting !== "cloud")
    return json({ problem: CLOUD_HUB_NEEDS_CLOUD_HOSTING }, { status: 422 });
  // Choosing cloud hosting clears offsite access: a cloud Hub is reachable from anywhere.
  return wizard.complete(member, "hosting", {
    hosting: choice.data.hosting,
    offsiteAccess: choice.data.offsiteAccess && offsiteAllowed(choice.data.hosting),
  });
}

export default function HostingStep() {
  const { previousTo, period, choices, offsiteAccess, defaults } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>()?.problem;
  const [hosting, setHosting] = useState<Hosting>(defaults.hosting);
  const [offsite, setOffsite] = useState(defaults.offsiteAccess);
  // Without JavaScript the box cannot follow the radio, so it stays enabled and the server applies the rule.
  const offsiteEnabled = !useHydrated() || offsiteAllowed(hosting);
  return (
    <Form method="post">
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Title order={3}>Select Your Preferred GateKeeper Hub Deployment</Title>
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <RadioGroup
          name="hosting"
          value={hosting}
          onChange={(value) => setHosting(choices.find((choice) => choice.hosting === value)?.hosting ?? hosting)}
          aria-label="Hub deployment"
        >
          <Stack gap="sm">
            {choices.map(({ hosting: value, item }) => (
              <Radio
                key={value}
                value={value}
                label={`${item.name} · ${formatCents(item.price)} per ${period}`}
                description={item.description}
              />
            ))}
          </Stack>
        </RadioGroup>
        <Checkbox
          name="offsiteAccess"
          checked={offsiteEnabled && offsite}
          onChange={(event) => setOffsite(event.currentTarget.checked)}
          disabled={!offsiteEnabled}
          label={`${offsiteAccess.name} · ${formatCents(offsiteAccess.price)} per ${period}`}
          description={offsiteAccess.description}
        />
        <Text size="sm" c="dimmed">
          Offsite access is for reaching an on-premise Hub from outside your network; a cloud Hub already is, so it is
          not added to one.
        </Text>
      </Stack>
      <StepActions previousTo={previousTo} nextLabel="Next: Hardware" />
    </Form>
  );
}

export const ErrorBoundary = PageErrorBoundary;
