import { Text, Title } from "~/ui/typography";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { validationError } from "remix-validated-form";
import { formatCents } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { addonField } from "~/domain/subscription-steps";
import {
  blockedMessage,
  CLOUD_ONLY_REASON,
  excludedBy,
  requiresCloud,
  tickedQuantity,
  type Hosting,
} from "~/domain/subscription";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { purchaseRight, subscriptionWizardOf } from "~/server/orders/new-subscription-wizard.server";
import { offerFor } from "~/server/orders/offers.server";
import type { Member } from "~/server/accounts/access.server";
import { Checkbox } from "~/ui/inputs";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";
import { ValidatedForm } from "~/ui/validated-form";

async function supportOffer(member: Member, request: Request) {
  const { wizard } = await subscriptionWizardOf(member, request);
  const draft = await wizard.load(member, "support");
  const { support } = await offerFor(member.organization, draft.data.cycle);
  return { wizard, draft: draft.data, addons: support.map((item) => ({ ...item, id: item.listId })) };
}

/** The support step's rules over these add-ons and the chosen hosting. */
const supportValidator = (addons: { id: string; name: string }[], hosting: Hosting) =>
  lazyValidator(() => import("~/domain/new-subscription").then((module) => module.supportStepSchema(addons, hosting)));

export async function loader({ request }: LoaderFunctionArgs) {
  const { wizard, draft, addons } = await supportOffer(await requireMember(request, purchaseRight(request)), request);
  return json({
    previousTo: wizard.urlOf("hardware"),
    addons,
    hosting: draft.hosting,
    ticked: addons.filter((addon) => (draft.support[addon.id] ?? 0) > 0).map((addon) => addon.id),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, purchaseRight(request));
  const { wizard, draft, addons } = await supportOffer(member, request);
  const result = await supportValidator(addons, draft.hosting).validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  const support = Object.fromEntries(
    addons.map((addon) => [addon.id, tickedQuantity(draft.support[addon.id] ?? 0, result.data.includes(addon.id))]),
  );
  return wizard.complete(member, "support", { support });
}

export default function SupportStep() {
  const { previousTo, addons, hosting, ticked: initiallyTicked } = useLoaderData<typeof loader>();
  const errors =
    (useActionData<typeof action>() as { fieldErrors?: Record<string, string> } | undefined)?.fieldErrors ?? {};
  const [ticked, setTicked] = useState<string[]>(initiallyTicked);
  // The rules disable boxes live with JavaScript; without it every box posts and the server applies them.
  const hydrated = useHydrated();
  const reasonFor = (id: string): string | null => {
    if (!hydrated || ticked.includes(id)) return null;
    if (hosting !== "cloud" && requiresCloud(id)) return CLOUD_ONLY_REASON;
    const excluder = excludedBy(id, ticked);
    return excluder ? blockedMessage(addons.find((addon) => addon.id === excluder)?.name ?? excluder) : null;
  };
  const validator = useMemo(() => supportValidator(addons, hosting), [addons, hosting]);
  return (
    <ValidatedForm validator={validator} method="post" noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Title order={3}>Support</Title>
        <Text size="sm">Installation help, training and premium support, charged once with the first invoice.</Text>
        {addons.map((addon) => {
          const reason = reasonFor(addon.id);
          const checked = ticked.includes(addon.id);
          return (
            <div key={addon.id}>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Checkbox
                  name={addonField(addon.id)}
                  checked={checked}
                  disabled={Boolean(reason)}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setTicked((current) => (on ? [...current, addon.id] : current.filter((id) => id !== addon.id)));
                  }}
                  label={`${addon.name} · ${formatCents(addon.price)}`}
                  description={addon.description}
                  error={errors[addonField(addon.id)]}
                  aria-describedby={reason ? `${addon.id}-reason` : undefined}
                />
                <Text size="sm" miw={110} ta="right">
                  Once: {formatCents(checked ? addon.price : 0)}
                </Text>
              </Group>
              {reason ? (
                <Text size="xs" c="dimmed" ml={32} id={`${addon.id}-reason`}>
                  {reason}
                </Text>
              ) : null}
            </div>
          );
        })}
      </Stack>
      <StepActions previousTo={previousTo} nextLabel="Next: Review" />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;
