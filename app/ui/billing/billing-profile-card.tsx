import { Text } from "~/ui/typography";
import { formatDate } from "~/domain/format";

import { LinkButton } from "~/ui/button";
import { Stack } from "~/ui/layout";
import { SectionCard } from "./section-card";
import type { BillingProfileView } from "~/domain/billing-views";

/**
 * The Billing Profile card: who is billed, and Update to open the 'Update Billing Profile' drawer
 * (`updateTo`). 'Error fetching billing profile.' when the customer could not be read.
 */
export function BillingProfileCard({
  profile,
  updateTo,
}: {
  profile: BillingProfileView | null | "error";
  updateTo: string;
}) {
  return (
    <SectionCard
      id="billing-profile-title"
      title="Billing Profile"
      action={
        <LinkButton to={updateTo} preventScrollReset variant="light" aria-label="Update billing profile">
          Update
        </LinkButton>
      }
    >
      {profile === "error" ? (
        <Text c="red.9" fw={600}>
          Error fetching billing profile.
        </Text>
      ) : profile ? (
        <Stack gap={0}>
          {[`${profile.firstName} ${profile.lastName}`.trim(), profile.company, profile.email, profile.phone]
            .filter(Boolean)
            .map((line) => (
              <Text size="sm" key={line}>
                {line}
              </Text>
            ))}
          {profile.vat ? (
            <Text size="sm" data-testid="vat-number">
              VAT number {profile.vat.number}: <strong>{profile.vat.status}</strong>
              {profile.vat.checkedAt ? ` (checked ${formatDate(profile.vat.checkedAt)})` : ""}
              {profile.vat.registerName ? `, registered to ${profile.vat.registerName}` : ""}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text size="sm">No billing profile yet. Update it before your first order.</Text>
      )}
    </SectionCard>
  );
}
