import { providerEventJob } from "../events/consumer.server";
import { reconciliation } from "../events/reconciliation.server";
import { sendMail } from "../mail/send-job.server";
import { cloudHubDeployment } from "./cloud-hub.server";
import { hubLicenseUpload } from "./hub-license-upload.server";
import { licenseUpdate } from "./license-update.server";
import { newSubscriptionOrder } from "./new-subscription.server";
import { payNow } from "./pay-now.server";
import type { AnyJobKind } from "./runner.server";
import { cloudTrial, onPremiseTrial } from "./trial.server";

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
