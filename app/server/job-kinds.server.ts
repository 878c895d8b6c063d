import { emailLinkJob } from "~/server/accounts/index.server";
import {
  providerEventJob,
  reconciliation,
  hubLicenseUpload,
  renewalReminder,
} from "~/server/subscriptions/index.server";
import { sendMail } from "~/server/mail/index.server";
import { cloudHubDeployment } from "~/server/cloud-hubs/index.server";
import { licenseUpdate, newSubscriptionOrder, payNow } from "~/server/orders/index.server";
import type { AnyJobKind } from "~/server/platform/jobs/runner.server";
import { cloudTrial, onPremiseTrial } from "~/server/trials/index.server";
import { taxIdRecheck } from "~/server/account-billing/index.server";

/** Every kind of durable job the runner knows, by name. */
export const JOB_KINDS: Record<string, AnyJobKind> = Object.fromEntries(
  [
    newSubscriptionOrder,
    licenseUpdate,
    cloudHubDeployment,
    cloudTrial,
    onPremiseTrial,
    sendMail,
    emailLinkJob,
    providerEventJob,
    reconciliation,
    hubLicenseUpload,
    payNow,
    taxIdRecheck,
    renewalReminder,
  ].map((kind) => [kind.name, kind]),
);
