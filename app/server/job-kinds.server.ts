import { providerEventJob } from "~/server/subscriptions/event-consumer.server";
import { reconciliation } from "~/server/subscriptions/reconciliation.server";
import { sendMail } from "~/server/mail/send-job.server";
import { cloudHubDeployment } from "~/server/cloud-hubs/cloud-hub-job.server";
import { hubLicenseUpload } from "~/server/subscriptions/hub-license-upload.server";
import { licenseUpdate } from "~/server/orders/license-update-job.server";
import { newSubscriptionOrder } from "~/server/orders/new-subscription-job.server";
import { payNow } from "~/server/orders/pay-now-job.server";
import type { AnyJobKind } from "~/server/platform/jobs/runner.server";
import { cloudTrial, onPremiseTrial } from "~/server/trials/trial-job.server";

/** Every kind of durable job the runner knows, by name. */
export const JOB_KINDS: Record<string, AnyJobKind> = Object.fromEntries(
  [
    newSubscriptionOrder,
    licenseUpdate,
    cloudHubDeployment,
    cloudTrial,
    onPremiseTrial,
    sendMail,
    providerEventJob,
    reconciliation,
    hubLicenseUpload,
    payNow,
  ].map((kind) => [kind.name, kind]),
);
