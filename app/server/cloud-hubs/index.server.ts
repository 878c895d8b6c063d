// What the cloud Hubs capability (the deployment wizard and job, Hub installations and their licenses) offers the
// rest of the portal; its other modules are its own.
export { DEPLOYMENT_STAGES, cloudHubDeployment } from "./cloud-hub-job.server";
export { DEMO_CLOUD_HUB_USAGE } from "./demo-hub-usage.server";
export { hubProvisioning, retryWhenOpen, secondsUntilRetry, type ProvisioningResults } from "./hub-provisioning.server";
